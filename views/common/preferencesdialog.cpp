#include "preferencesdialog.h"

#include "common/language.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace OncePay {

PreferencesDialog::PreferencesDialog(QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Preferences"));
    setObjectName(QStringLiteral("preferences"));
    m_language = new QComboBox(this);
    m_language->setObjectName(QStringLiteral("language"));
    for (const QString &code : Language::choices())
        m_language->addItem(Language::displayName(code), code);
    m_language->setCurrentIndex(m_language->findData(Language::chosen()));

    auto *form = new QFormLayout;
    form->addRow(tr("&Language:"), m_language);
    auto *note =
        new QLabel(tr("The window is rebuilt in the new language; you stay signed in."), this);
    note->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &PreferencesDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);
}

void PreferencesDialog::accept()
{
    const QString code = m_language->currentData().toString();
    m_changed = code != Language::chosen();
    if (m_changed)
        Language::choose(code);
    QDialog::accept();
}

} // namespace OncePay
