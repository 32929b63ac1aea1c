#pragma once

// The order state machine (DESIGN.md §2) drawn as a small diagram: every state and every
// allowed transition, the states this order went through filled, the transitions it took
// drawn thick (rollbacks in amber, with how many times when more than once: "×N" above the
// arrow, drawn over everything else), the current state outlined. Which transitions exist comes
// from services (transitionAllowed).
// Painting: the diagram fills its background (the window's colour, as behind it before) and
// each picture — path, current state, size, device-pixel ratio, palette and its colour group
// (active, inactive, disabled), font and resolution — is drawn once
// into a pixmap and copied after (pixelcopy.h): most orders take one of a few paths, and
// drawing the antialiased machine with its seven titles took ~0.6 ms of every order page
// whose path differed from the last one's (the benchmark's other-path row). The last
// kKeptPictures pictures are kept, of any size; a size is kept once painted twice in a row (not
// each step of a window being resized).
// Thread contract: GUI thread only.

#include <QList>
#include <QPixmap>
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

    static constexpr int kKeptPictures = 6;
    // Pictures drawn into a pixmap so far (tests: a picture seen before is copied, not drawn).
    int picturesDrawn() const { return m_drawn; }

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void draw(QPainter &p) const;

    // What a kept picture shows, and at what size, ratio, palette and font.
    struct Picture {
        QList<std::pair<QString, QString>> steps;
        QString current;
        QSize size;
        qreal dpr = 1;
        qint64 palette = 0;
        int colourGroup = 0; // active, inactive, disabled: the same palette, other colours
        QString font;
        int dpi = 0;
        bool operator==(const Picture &) const = default;
    };
    QList<std::pair<Picture, QPixmap>> m_pictures; // the most recently shown first
    int m_drawn = 0;
    QSize m_paintedSize; // at the last paint
    QList<std::pair<QString, QString>> m_steps;
    QString m_current;
};

} // namespace OncePay
