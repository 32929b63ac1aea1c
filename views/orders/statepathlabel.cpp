#include "statepathlabel.h"

#include <QAccessibleWidget>
#include <QEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace OncePay {

namespace {

// Distinct part texts kept before the cache starts over (state names, counts of refusals).
constexpr qsizetype kMaxTexts = 256;

} // namespace

StatePathLabel::StatePathLabel(QWidget *parent)
    : QWidget(parent)
{
    // Read by screen readers as text, as the QLabel it replaces was (not as a bare widget).
    static const bool announced = [] {
        QAccessible::installFactory([](const QString &key, QObject *o) -> QAccessibleInterface * {
            if (key == QLatin1String(staticMetaObject.className()))
                return new QAccessibleWidget(static_cast<QWidget *>(o), QAccessible::StaticText);
            return nullptr;
        });
        return true;
    }();
    Q_UNUSED(announced);
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void StatePathLabel::setParts(const QList<Part> &parts)
{
    if (parts == m_parts)
        return;
    m_parts = parts;
    setAccessibleName(text());
    updateGeometry();
    update();
}

QString StatePathLabel::text() const
{
    QString all;
    for (const Part &p : m_parts)
        all += p.text;
    return all;
}

const QStaticText &StatePathLabel::laidOutText(const Part &part) const
{
    const auto key = std::make_pair(part.text, part.bold);
    auto it = m_texts.find(key);
    if (it == m_texts.end()) {
        if (m_texts.size() >= kMaxTexts)
            m_texts.clear();
        QFont f = font(); // as paintEvent() draws it: the widget's font, or that in bold
        if (part.bold)
            f.setBold(true);
        QStaticText text(part.text);
        text.setTextFormat(Qt::PlainText);
        text.setPerformanceHint(QStaticText::AggressiveCaching);
        text.prepare(QTransform(), f);
        ++m_laidOut;
        it = m_texts.insert(key, text);
    }
    return *it;
}

int StatePathLabel::widthOf(const Part &part) const
{
    return int(std::ceil(laidOutText(part).size().width()));
}

QList<QRect> StatePathLabel::layoutAt(int width) const
{
    const int lineHeight = fontMetrics().height();
    QList<QRect> rects;
    int x = 0, y = 0;
    for (const Part &p : m_parts) {
        const int w = widthOf(p);
        if (x > 0 && p.breakBefore && x + w > width) {
            x = 0;
            y += lineHeight;
        }
        rects.append(QRect(x, y, w, lineHeight));
        x += w;
    }
    return rects;
}

QSize StatePathLabel::sizeHint() const
{
    int w = 0;
    for (const Part &p : m_parts)
        w += widthOf(p);
    return {w, fontMetrics().height()};
}

QSize StatePathLabel::minimumSizeHint() const
{
    // The widest run between two places a line may break.
    int widest = 0, run = 0;
    for (const Part &p : m_parts) {
        if (p.breakBefore)
            run = 0;
        run += widthOf(p);
        widest = std::max(widest, run);
    }
    return {widest, fontMetrics().height()};
}

int StatePathLabel::heightForWidth(int width) const
{
    const QList<QRect> rects = layoutAt(width);
    return rects.isEmpty() ? fontMetrics().height() : rects.last().bottom() + 1;
}

void StatePathLabel::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setPen(palette().color(foregroundRole()));
    const QList<QRect> rects = layoutAt(width());
    QFont regular = font(), bold = font();
    bold.setBold(true);
    for (qsizetype i = 0; i < m_parts.size(); ++i) {
        const Part &part = m_parts[i];
        if (part.background.isValid())
            p.fillRect(rects[i], part.background);
        p.setFont(part.bold ? bold : regular);
        p.drawStaticText(rects[i].topLeft(), laidOutText(part));
    }
}

void StatePathLabel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange) {
        m_texts.clear();
        updateGeometry();
    }
    QWidget::changeEvent(event);
}

} // namespace OncePay
