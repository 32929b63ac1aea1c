#pragma once

// A tab bar that keeps what it painted. A tab bar is painted anew whenever anything above it
// changes height and moves it — an order page's tabs under a header of another order's facts,
// 0.6–0.7 ms of that page for six unchanged tabs (the style draws each tab's shape and lays its
// title out again). Here, once a look has been painted and has held for 300 ms, the bar is
// rendered once more, by QTabBar itself, into a pixmap on its own background colour; while its
// look stays the same — size, device-pixel ratio, style, palette, font, and every tab's style
// option (title, icon, place, state: current, hover, focus, enabled, active window) — painting
// copies that picture (the same pixels: tst_kept_tab_bar). Painted by QTabBar as before:
// painters that scale or fade, a bar without an opaque background of its own, a bar under a
// style sheet, scroll buttons shown, tabs that can be moved (dragged or animated), close
// buttons and other tab buttons. A new style, polish or dynamic property drops the picture.
// KeptTabWidget is a QTabWidget with such a bar, filling its background as the window does.
// Thread contract: GUI thread only.

#include <QBasicTimer>
#include <QByteArray>
#include <QPixmap>
#include <QTabBar>
#include <QTabWidget>

namespace OncePay {

class KeptTabBar : public QTabBar {
public:
    explicit KeptTabBar(QWidget *parent = nullptr);

    // How many paints copied the kept picture: for tests.
    int copies() const { return m_copies; }
    // Whether a picture of the present look is kept.
    bool keepsThisLook() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    void timerEvent(QTimerEvent *event) override;
    bool event(QEvent *event) override;

private:
    // Everything QTabBar paints by, or empty when a picture of it is not kept (see above).
    QByteArray look() const;
    // Renders the present look into the kept picture (once it has held, after it was painted).
    void keep();

    static constexpr int kKeepAfterMs = 300;

    QByteArray m_keptLook;
    QPixmap m_kept;
    QBasicTimer m_quiet; // restarted by each paint of a look not kept
    bool m_rendering = false;
    int m_copies = 0;
};

class KeptTabWidget : public QTabWidget {
public:
    explicit KeptTabWidget(QWidget *parent = nullptr);
};

} // namespace OncePay
