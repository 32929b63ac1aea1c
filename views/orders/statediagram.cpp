#include "statediagram.h"

#include "common/labels.h"
#include "orders/orderstate.h"

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

} // namespace

StateDiagram::StateDiagram(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("stateDiagram"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
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

QSize StateDiagram::sizeHint() const
{
    return {720, 130};
}

QSize StateDiagram::minimumSizeHint() const
{
    return {480, 130};
}

void StateDiagram::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const double colW = width() / 5.0;
    const double boxW = std::min(colW - 24, 150.0);
    const double boxH = 28;
    const double top = 26; // room for the rollback arc above the top row
    const double rowH = 56;
    auto boxOf = [&](OrderState s) {
        const QPointF c = cellOf(s);
        return QRectF(c.x() * colW + (colW - boxW) / 2, top + c.y() * rowH, boxW, boxH);
    };
    QSet<QString> visited{m_current};
    for (const auto &[f, t] : m_steps)
        visited << f << t;

    const QColor idle(0xb0, 0xb0, 0xb0);
    const QColor taken(0x1f, 0x5f, 0xa8);
    const QColor rollback(0xc9, 0x8a, 0x00);
    for (OrderState from : kStates) {
        for (OrderState to : kStates) {
            if (!transitionAllowed(from, to))
                continue;
            const int n = timesTaken(orderStateName(from), orderStateName(to));
            const bool back = isRollback(from, to);
            const QColor colour = n == 0 ? idle : back ? rollback : taken;
            p.setPen(QPen(colour, n ? 2.5 : 1.0));
            p.setBrush(colour);
            const QRectF a = boxOf(from);
            const QRectF b = boxOf(to);
            QPointF tip;
            QPointF tail;
            QPointF labelAt;
            if (cellOf(from).y() == cellOf(to).y() && cellOf(to).x() < cellOf(from).x()) {
                // Backwards along the top row: an arc over the boxes.
                const QPointF s(a.center().x(), a.top());
                tip = QPointF(b.center().x() + 10, b.top());
                QPainterPath arc(s);
                arc.cubicTo(s + QPointF(0, -22), tip + QPointF(0, -22), tip);
                p.setBrush(Qt::NoBrush);
                p.drawPath(arc);
                p.setBrush(colour);
                tail = tip + QPointF(0, -10);
                labelAt = (s + tip) / 2 + QPointF(0, -18);
            } else {
                tail = exitPoint(a, b.center());
                tip = exitPoint(b, a.center());
                p.drawLine(tail, tip);
                labelAt = (tail + tip) / 2;
            }
            arrowHead(p, tip, tail);
            if (n > 1) {
                p.setPen(colour);
                p.drawText(labelAt + QPointF(4, -3), tr("×%1").arg(n));
            }
        }
    }

    for (OrderState s : kStates) {
        const QString code = orderStateName(s);
        const QRectF r = boxOf(s);
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
}

} // namespace OncePay
