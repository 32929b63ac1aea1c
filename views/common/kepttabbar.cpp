#include "kepttabbar.h"

#include "pixelcopy.h"

#include <QAbstractButton>
#include <QDataStream>
#include <QIODevice>
#include <QPainter>
#include <QStyle>
#include <QStyleOptionTab>
#include <QTimerEvent>

namespace OncePay {

KeptTabBar::KeptTabBar(QWidget *parent)
    : QTabBar(parent)
{
    // What is under the bar, drawn with it: the window's colour, as its parents fill it.
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Window);
}

QByteArray KeptTabBar::look() const
{
    // (a style sheet draws by rules and properties no key here holds)
    if (!opaqueBackground(this) || isMovable() || tabsClosable() ||
        testAttribute(Qt::WA_StyleSheet))
        return {};
    for (const QAbstractButton *button : findChildren<QAbstractButton *>())
        if (button->isVisible()) // scroll buttons, or a tab's own button
            return {};
    QByteArray key;
    QDataStream out(&key, QIODevice::WriteOnly);
    out << size() << devicePixelRatioF() << quintptr(style()) << palette().cacheKey()
        << font().key() << int(shape()) << documentMode() << drawBase() << int(elideMode())
        << isEnabled() << isActiveWindow() << int(layoutDirection()) << count() << currentIndex()
        << int(foregroundRole()) << int(backgroundRole());
    for (int i = 0; i < count(); ++i) {
        QStyleOptionTab tab;
        initStyleOption(&tab, i);
        // (mnemonics underlined or not: Windows styles underline them while Alt is down)
        if (i == 0)
            out << style()->styleHint(QStyle::SH_UnderlineShortcut, &tab, this);
        out << tab.rect << int(tab.state) << tab.text << tab.icon.cacheKey() << tab.iconSize
            << int(tab.position) << int(tab.selectedPosition) << int(tab.cornerWidgets)
            << int(tab.features) << int(tab.shape) << tab.documentMode << tab.leftButtonSize
            << tab.rightButtonSize << tab.row << int(tab.direction) << tabTextColor(i);
    }
    return key;
}

bool KeptTabBar::keepsThisLook() const
{
    return !m_kept.isNull() && m_keptLook == look();
}

void KeptTabBar::paintEvent(QPaintEvent *event)
{
    if (m_rendering)
        return QTabBar::paintEvent(event);
    const QByteArray now = look();
    {
        QPainter p(this);
        if (!copiesPixelForPixel(&p)) {
            p.end();
            return QTabBar::paintEvent(event);
        }
        if (!now.isEmpty() && now == m_keptLook && !m_kept.isNull()) {
            p.drawPixmap(0, 0, m_kept);
            ++m_copies;
            return;
        }
    }
    QTabBar::paintEvent(event);
    // Kept once the look has held for a moment: not for each look a pointer crossing the tabs
    // shows on its way, and not inside this paint.
    if (!now.isEmpty())
        m_quiet.start(kKeepAfterMs, this);
}

void KeptTabBar::timerEvent(QTimerEvent *event)
{
    if (event->timerId() != m_quiet.timerId())
        return QTabBar::timerEvent(event);
    m_quiet.stop();
    keep();
}

bool KeptTabBar::event(QEvent *event)
{
    switch (event->type()) {
    case QEvent::StyleChange:
    case QEvent::Polish:
    case QEvent::PolishRequest:
    case QEvent::DynamicPropertyChange: // (a selector of a style sheet may read a property)
        m_kept = {};
        m_keptLook.clear();
        break;
    default: break;
    }
    return QTabBar::event(event);
}

void KeptTabBar::keep()
{
    const QByteArray now = look();
    if (now.isEmpty() || now == m_keptLook || !isVisible())
        return;
    // On the bar's own opaque background (look() asks for one), rendered with it: the raster
    // engine draws text on a transparent pixmap with other glyph images, other pixels.
    const qreal dpr = devicePixelRatioF();
    QPixmap picture(size() * dpr);
    picture.setDevicePixelRatio(dpr);
    m_rendering = true;
    render(&picture, QPoint(), QRegion(), RenderFlags());
    m_rendering = false;
    m_kept = picture;
    m_keptLook = now;
}

KeptTabWidget::KeptTabWidget(QWidget *parent)
    : QTabWidget(parent)
{
    setTabBar(new KeptTabBar(this));
}

} // namespace OncePay
