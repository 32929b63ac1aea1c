#pragma once

// Asks for what a fix proposal needs beyond its targets: the kind (among those the rule
// offers), a reason code, a comment and, for fee adjustments and write-offs, an optional
// amount. Shows the targets the chosen kind covers (each kind may cover a part of them); the
// rules are checked by FixService when it is sent.
// Thread contract: GUI thread only.

#include "fixes/fixrules.h"
#include "fixes/fixtypes.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace OncePay {

class ProposeFixDialog : public QDialog {
    Q_OBJECT
public:
    // `offers`: each kind with the targets it covers, as indexes into `targets` (fixOffers);
    // `currency`: for the amount field (empty hides it).
    ProposeFixDialog(const QList<FixOffer> &offers, const QStringList &targets,
                     const QString &currency, QWidget *parent = nullptr);

    // One proposal per target the chosen kind covers; empty when the amount does not parse.
    QList<FixProposal> proposals(const QString &origin) const;
    // The targets the chosen kind covers.
    QStringList currentTargets() const;

    QComboBox *kindBox() const { return m_kind; }
    QComboBox *reasonBox() const { return m_reason; }
    QPlainTextEdit *commentEdit() const { return m_comment; }
    QLineEdit *amountEdit() const { return m_amount; }

private:
    void updateState();
    void showTargets();

    QList<FixOffer> m_offers;
    QStringList m_targets;
    QString m_currency;
    QComboBox *m_kind = nullptr;
    QComboBox *m_reason = nullptr;
    QPlainTextEdit *m_comment = nullptr;
    QLineEdit *m_amount = nullptr;
    QLabel *m_amountLabel = nullptr;
    QLabel *m_problem = nullptr;
    QLabel *m_targetsLabel = nullptr;
    QLabel *m_targetList = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace OncePay
