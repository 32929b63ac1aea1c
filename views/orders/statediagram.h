#pragma once

// The order state machine (DESIGN.md §2) drawn as a small diagram: every state and every
// allowed transition, the states this order went through filled, the transitions it took
// drawn thick (rollbacks in amber, with how many times when more than once: "×N" above the
// arrow, drawn over everything else), the current state outlined. Which transitions exist comes
// from services (transitionAllowed). Thread contract: GUI thread only.

#include <QList>
#include <QRectF>
#include <QWidget>

#include <utility>

namespace OncePay {

class StateDiagram : public QWidget {
    Q_OBJECT
public:
    explicit StateDiagram(QWidget *parent = nullptr);

    // Transitions as (from, to) state codes, oldest first, and the order's current state.
    void setPath(const QList<std::pair<QString, QString>> &steps, const QString &current);
    void clear();
    // How often the shown order took from → to (0 when never or not a transition).
    int timesTaken(const QString &from, const QString &to) const;
    // Where the diagram draws, at its size and font: a state's box, and the count "×N" of an
    // edge taken more than once (a null rect otherwise). Counts never overlap a box.
    QRectF stateBox(const QString &state) const;
    QRectF countRect(const QString &from, const QString &to) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QList<std::pair<QString, QString>> m_steps;
    QString m_current;
};

} // namespace OncePay
