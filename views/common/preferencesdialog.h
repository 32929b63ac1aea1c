#pragma once

// Preferences of this person on this computer: the interface language (applied by
// rebuilding the main window, no restart). Shared operations settings are elsewhere.
// Thread contract: GUI thread only.

#include <QDialog>

class QComboBox;

namespace OncePay {

class PreferencesDialog : public QDialog {
    Q_OBJECT
public:
    explicit PreferencesDialog(QWidget *parent = nullptr);

    QComboBox *languageBox() const { return m_language; }
    // After accept(): whether the language differs from before (already stored).
    bool languageChanged() const { return m_changed; }

    void accept() override;

private:
    QComboBox *m_language = nullptr;
    bool m_changed = false;
};

} // namespace OncePay
