#pragma once

// Asks for what a fix proposal needs beyond its targets: the kind (among those the rule
// offers), a reason code, a comment and, for fee adjustments and write-offs, an optional
// amount. A discrepancy with amounts in two currencies (a currency mismatch, a chargeback of a
// payment in another currency) has no difference to default to: for it the amount is required
// and its currency is chosen from exactly those two (FixProposal::currency). Shows the targets
// the chosen kind covers (each kind may cover a part of them); the rules are checked by
// FixService when it is sent.
// Thread contract: GUI thread only.

#include "fixes/fixrules.h"
#include "fixes/fixtypes.h"

#include <QDialog>
#include <QMap>

#include <optional>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace OncePay {

// A discrepancy's amounts in two currencies: the expected amount's (the payment's,
// discrepancies.expected_currency) and the settled one's (the line's, discrepancies.currency).
struct ProposeFixTwoCurrencies {
    QString expectedIn;
    QString settledIn;
    friend bool operator==(const ProposeFixTwoCurrencies &,
                           const ProposeFixTwoCurrencies &) = default;
};

class ProposeFixDialog : public QDialog {
    Q_OBJECT
public:
    // `offers`: each kind with the targets it covers, as indexes into `targets` (fixOffers);
    // `currency`: for the amount field (empty hides it); `twoCurrencies`: by target, the
    // targets whose amounts are in two currencies.
    ProposeFixDialog(const QList<FixOffer> &offers, const QStringList &targets,
                     const QString &currency, QWidget *parent = nullptr,
                     const QMap<QString, ProposeFixTwoCurrencies> &twoCurrencies = {});

    // One proposal per target the chosen kind covers; empty when the amount does not parse
    // (or, for amounts in two currencies, is missing or has no currency chosen).
    QList<FixProposal> proposals(const QString &origin) const;
    // The targets the chosen kind covers.
    QStringList currentTargets() const;

    QComboBox *kindBox() const { return m_kind; }
    QComboBox *reasonBox() const { return m_reason; }
    QPlainTextEdit *commentEdit() const { return m_comment; }
    QLineEdit *amountEdit() const { return m_amount; }
    // The amount's currency, offered for amounts in two currencies only.
    QComboBox *currencyBox() const { return m_amountCurrency; }

private:
    void updateState();
    void showTargets();
    // The two currencies of the chosen kind's targets, when an amount is asked and they have
    // them; `mixed` when those targets do not all have the same two.
    std::optional<ProposeFixTwoCurrencies> currentTwoCurrencies(bool *mixed = nullptr) const;
    void offerCurrencies(const std::optional<ProposeFixTwoCurrencies> &two);

    QList<FixOffer> m_offers;
    QStringList m_targets;
    QString m_currency;
    QMap<QString, ProposeFixTwoCurrencies> m_twoCurrencies;
    std::optional<ProposeFixTwoCurrencies> m_offeredCurrencies;
    QComboBox *m_kind = nullptr;
    QComboBox *m_reason = nullptr;
    QPlainTextEdit *m_comment = nullptr;
    QLineEdit *m_amount = nullptr;
    QComboBox *m_amountCurrency = nullptr;
    QLabel *m_amountLabel = nullptr;
    QLabel *m_problem = nullptr;
    QLabel *m_targetsLabel = nullptr;
    QLabel *m_targetList = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace OncePay
