#include "statediagram.h"

#include "common/labels.h"
#include "common/pixelcopy.h"
#include "orders/orderstate.h"

#include <QEvent>
#include <QPainter>
#include <QPainterPath>
#include <QSet>
#include <QtMath>

#include <algorithm>
#include <cmath>

namespace OncePay {

namespace {

// Grid cell of each state: the happy path on the top row, the side exits below it.
QPointF cellOf(OrderState s)
{
    switch (s) {
    case OrderState::PendingPayment: return {0, 0};
    case OrderState::Paying: return {1, 0};
    case OrderState::PaidUnconfirmed: return {2, 0};
    case OrderState::Paid: return {3, 0};
    case OrderState::Refunded: return {4, 0};
    case OrderState::Cancelled: return {0, 1};
    case OrderState::PaymentFailed: return {1, 1};
    }
    return {};
}

const QList<OrderState> kStates{OrderState::PendingPayment,  OrderState::Paying,
                                OrderState::PaidUnconfirmed, OrderState::Paid,
                                OrderState::Refunded,        OrderState::Cancelled,
                                OrderState::PaymentFailed};

void arrowHead(QPainter &p, QPointF tip, QPointF from)
{
    const QLineF line(tip, from);
    const double angle = qDegreesToRadians(line.angle());
    const double size = 7;
    const QPointF a = tip + QPointF(std::cos(angle + 0.45) * size, -std::sin(angle + 0.45) * size);
    const QPointF b = tip + QPointF(std::cos(angle - 0.45) * size, -std::sin(angle - 0.45) * size);
    p.drawPolygon(QPolygonF{tip, a, b});
}

// Where the segment from the centre of `box` towards `to` leaves the box.
QPointF exitPoint(const QRectF &box, QPointF to)
{
    const QPointF c = box.center();
    const QPointF d = to - c;
    if (qFuzzyIsNull(d.x()) && qFuzzyIsNull(d.y()))
        return c;
    const double sx = d.x() == 0 ? 1e9 : (box.width() / 2) / std::abs(d.x());
    const double sy = d.y() == 0 ? 1e9 : (box.height() / 2) / std::abs(d.y());
    return c + d * std::min(sx, sy);
}

// Where everything sits at a width: five columns, the happy path on the top row.
struct DiagramGeometry {
    explicit DiagramGeometry(int width)
        : colW(width / 5.0)
        , boxW(std::min(colW - 24, 150.0))
    {}
    double colW;
    double boxW;
    double boxH = 28;
    double top = 26; // room for the rollback arc above the top row
    double rowH = 56;

    QRectF boxOf(OrderState s) const
    {
        const QPointF c = cellOf(s);
        return QRectF(c.x() * colW + (colW - boxW) / 2, top + c.y() * rowH, boxW, boxH);
    }
};

// One allowed transition's arrow: an arc over the top row going back, a straight line
// otherwise.
struct Edge {
    bool arc = false;
    QPointF start; // an arc's start (the top of its box)
    QPointF tail;  // where the arrowhead is aimed from
    QPointF tip;
};

Edge edgeOf(const DiagramGeometry &g, OrderState from, OrderState to)
{
    const QRectF a = g.boxOf(from);
    const QRectF b = g.boxOf(to);
    Edge e;
    if (cellOf(from).y() == cellOf(to).y() && cellOf(to).x() < cellOf(from).x()) {
        e.arc = true;
        e.start = QPointF(a.center().x(), a.top());
        e.tip = QPointF(b.center().x() + 10, b.top());
        e.tail = e.tip + QPointF(0, -10);
    } else {
        e.tail = exitPoint(a, b.center());
        e.tip = exitPoint(b, a.center());
    }
    return e;
}

constexpr double kArcRise = 22;

QPainterPath arcPath(const Edge &e)
{
    QPainterPath arc(e.start);
    arc.cubicTo(e.start + QPointF(0, -kArcRise), e.tip + QPointF(0, -kArcRise), e.tip);
    return arc;
}

// Where the count of an edge goes, for a text `size` (width, height) across: over the arc's
// crest; in the gap between two boxes of a row above the arrow, or above the row when the gap
// is too narrow; beside a line between the rows, clear of it. Never over a box.
QRectF countRectOf(const DiagramGeometry &g, OrderState from, OrderState to, QSizeF size)
{
    const Edge e = edgeOf(g, from, to);
    if (e.arc) {
        const QPointF crest = arcPath(e).pointAtPercent(0.5);
        QRectF r(QPointF(), size);
        r.moveCenter(crest);
        if (r.top() < 0)
            r.moveTop(0);
        return r;
    }
    const QRectF a = g.boxOf(from);
    const QRectF b = g.boxOf(to);
    if (qFuzzyCompare(e.tail.y(), e.tip.y())) { // along a row
        const double left = std::min(a.right(), b.right());
        const double right = std::max(a.left(), b.left());
        QRectF r(QPointF(), size);
        r.moveCenter(QPointF((left + right) / 2, 0));
        if (size.width() <= right - left - 2)
            r.moveBottom(e.tail.y() - 4); // clear of the line and its arrowhead
        else
            r.moveBottom(std::min(a.top(), b.top()) - 1);
        return r;
    }
    // Between the rows: to the right of the line, at its middle, as far as the line leans over
    // the label's height.
    const QPointF mid = (e.tail + e.tip) / 2;
    const double dy = e.tip.y() - e.tail.y();
    const double lean = qFuzzyIsNull(dy) ? 0 : std::abs((e.tip.x() - e.tail.x()) / dy);
    QRectF r(QPointF(), size);
    r.moveCenter(mid);
    r.moveLeft(mid.x() + lean * size.height() / 2 + 4);
    return r;
}

// The count's text and the room it takes, with a pixel of margin around it.
QSizeF countSize(const QFontMetrics &fm, const QString &text)
{
    return QSizeF(fm.horizontalAdvance(text) + 4, fm.height() + 2);
}

} // namespace

StateDiagram::StateDiagram(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("stateDiagram"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setAutoFillBackground(true); // an opaque colour to draw the kept pictures on
}

void StateDiagram::setPath(const QList<std::pair<QString, QString>> &steps, const QString &current)
{
    if (steps == m_steps && current == m_current)
        return; // the same picture (most orders take the same path): nothing to repaint
    m_steps = steps;
    m_current = current;
    setAccessibleDescription(tr("Current state: %1").arg(Labels::orderState(current)));
    update();
}

void StateDiagram::clear()
{
    setPath({}, {});
}

int StateDiagram::timesTaken(const QString &from, const QString &to) const
{
    int n = 0;
    for (const auto &[f, t] : m_steps)
        n += f == from && t == to;
    return n;
}

QRectF StateDiagram::stateBox(const QString &state) const
{
    const auto s = parseOrderState(state);
    return s ? DiagramGeometry(width()).boxOf(*s) : QRectF();
}

QRectF StateDiagram::countRect(const QString &from, const QString &to) const
{
    const auto f = parseOrderState(from);
    const auto t = parseOrderState(to);
    const int n = timesTaken(from, to);
    if (!f || !t || n < 2 || !transitionAllowed(*f, *t))
        return {};
    return countRectOf(DiagramGeometry(width()), *f, *t,
                       countSize(fontMetrics(), tr("×%1").arg(n)));
}

QSize StateDiagram::sizeHint() const
{
    return {720, 130};
}

QSize StateDiagram::minimumSizeHint() const
{
    return {480, 130};
}

void StateDiagram::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::StyleChange || event->type() == QEvent::LayoutDirectionChange)
        m_pictures.clear(); // (a palette or a font is in each picture's key)
    QWidget::changeEvent(event);
}

void StateDiagram::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const std::optional<QColor> under = opaqueBackground(this);
    if (!under || !copiesPixelForPixel(&p))
        return draw(p);
    const qreal dpr = p.device()->devicePixelRatio();
    // Kept only at a size painted twice in a row: each step of a window being resized is a new
    // size, drawn as it is rather than kept (a kept one is shown at any size).
    const bool steady = size() == m_paintedSize;
    m_paintedSize = size();
    const Picture key{m_steps,
                      m_current,
                      size(),
                      dpr,
                      palette().cacheKey(),
                      int(palette().currentColorGroup()),
                      font().key(),
                      logicalDpiY()};
    auto kept = std::find_if(m_pictures.begin(), m_pictures.end(),
                             [&key](const auto &picture) { return picture.first == key; });
    if (kept == m_pictures.end() && !steady)
        return draw(p);
    if (kept == m_pictures.end()) {
        // A new ratio, palette, font or resolution makes every kept picture one not shown
        // again (a colour group comes back: an inactive window is active again).
        m_pictures.removeIf([&key](const auto &picture) {
            const Picture &k = picture.first;
            return k.dpr != key.dpr || k.palette != key.palette || k.font != key.font ||
                   k.dpi != key.dpi;
        });
        QPixmap pixmap((QSizeF(size()) * dpr).toSize());
        pixmap.setDevicePixelRatio(dpr);
        pixmap.fill(*under);
        {
            QPainter q(&pixmap);
            q.setFont(QFont(font(), this)); // at this widget's resolution, not the pixmap's
            q.setPen(palette().color(foregroundRole()));
            q.setLayoutDirection(layoutDirection());
            draw(q);
        }
        ++m_drawn;
        if (m_pictures.size() >= kKeptPictures)
            m_pictures.removeLast();
        m_pictures.prepend({key, pixmap});
        kept = m_pictures.begin();
    } else if (kept != m_pictures.begin()) {
        m_pictures.move(kept - m_pictures.begin(), 0);
        kept = m_pictures.begin();
    }
    p.drawPixmap(0, 0, kept->second);
}

void StateDiagram::draw(QPainter &p) const
{
    p.setRenderHint(QPainter::Antialiasing);
    const DiagramGeometry g(width());
    QSet<QString> visited{m_current};
    for (const auto &[f, t] : m_steps)
        visited << f << t;

    const QColor idle(0xb0, 0xb0, 0xb0);
    const QColor taken(0x1f, 0x5f, 0xa8);
    const QColor rollback(0xc9, 0x8a, 0x00);
    struct Count {
        QRectF rect;
        QString text;
        QColor colour;
    };
    QList<Count> counts; // drawn last, over the boxes' edges and lines
    for (OrderState from : kStates) {
        for (OrderState to : kStates) {
            if (!transitionAllowed(from, to))
                continue;
            const int n = timesTaken(orderStateName(from), orderStateName(to));
            const bool back = isRollback(from, to);
            const QColor colour = n == 0 ? idle : back ? rollback : taken;
            p.setPen(QPen(colour, n ? 2.5 : 1.0));
            p.setBrush(colour);
            const Edge e = edgeOf(g, from, to);
            if (e.arc) {
                p.setBrush(Qt::NoBrush);
                p.drawPath(arcPath(e));
                p.setBrush(colour);
            } else {
                p.drawLine(e.tail, e.tip);
            }
            arrowHead(p, e.tip, e.tail);
            if (n > 1) {
                const QString text = tr("×%1").arg(n);
                counts.append(
                    {countRectOf(g, from, to, countSize(p.fontMetrics(), text)), text, colour});
            }
        }
    }

    for (OrderState s : kStates) {
        const QString code = orderStateName(s);
        const QRectF r = g.boxOf(s);
        const bool isCurrent = code == m_current;
        p.setPen(QPen(isCurrent ? taken : QColor(0x80, 0x80, 0x80), isCurrent ? 3 : 1));
        p.setBrush(visited.contains(code) ? QColor(0xdc, 0xe9, 0xf7) : palette().base().color());
        p.drawRoundedRect(r, 6, 6);
        QFont f = font();
        f.setBold(isCurrent);
        p.setFont(f);
        p.setPen(palette().text().color());
        p.drawText(r, Qt::AlignCenter,
                   p.fontMetrics().elidedText(Labels::orderState(code), Qt::ElideRight,
                                              int(r.width()) - 6));
    }

    // The counts, on the window's colour so that a line under one does not cross its digits.
    p.setFont(font());
    for (const Count &c : counts) {
        p.fillRect(c.rect, palette().window());
        p.setPen(c.colour);
        p.drawText(c.rect, Qt::AlignCenter, c.text);
    }
}

} // namespace OncePay
