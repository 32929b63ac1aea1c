#pragma once

// A thin indeterminate progress bar shown while a page waits for its background query.
// Thread contract: GUI thread only.

#include <QProgressBar>

namespace OncePay {

class BusyIndicator : public QProgressBar {
    Q_OBJECT
public:
    explicit BusyIndicator(QWidget *parent = nullptr)
        : QProgressBar(parent)
    {
        setRange(0, 0);
        setTextVisible(false);
        setMaximumHeight(6);
        setObjectName(QStringLiteral("busy"));
        hide();
    }
    void setBusy(bool busy) { setVisible(busy); }
};

} // namespace OncePay
