#include "proposefixdialog.h"

#include "core/money.h"
#include "fixes/fixlabels.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSet>
#include <QSignalBlocker>

namespace OncePay {

ProposeFixDialog::ProposeFixDialog(const QList<FixOffer> &offers, const QStringList &targets,
                                   const QString &currency, QWidget *parent,
                                   const QMap<QString, ProposeFixTwoCurrencies> &twoCurrencies)
    : QDialog(parent)
    , m_offers(offers)
    , m_targets(targets)
    , m_currency(currency)
    , m_twoCurrencies(twoCurrencies)
{
    setObjectName(QStringLiteral("proposeFixDialog"));
    setWindowTitle(tr("Propose a fix"));
    m_kind = new QComboBox(this);
    m_kind->setObjectName(QStringLiteral("kind"));
    for (const FixOffer &o : offers)
        m_kind->addItem(Labels::fixKind(o.kind), o.kind);
    m_reason = new QComboBox(this);
    m_reason->setObjectName(QStringLiteral("reason"));
    m_reason->addItem(tr("— choose a reason —"), QString());
    for (const QString &r : fixReasonCodes())
        m_reason->addItem(Labels::fixReason(r), r);
    m_comment = new QPlainTextEdit(this);
    m_comment->setObjectName(QStringLiteral("comment"));
    m_comment->setPlaceholderText(tr("What you saw and why this fix is right (required, audited)"));
    m_comment->setTabChangesFocus(true);
    m_amount = new QLineEdit(this);
    m_amount->setObjectName(QStringLiteral("amount"));
    m_amount->setPlaceholderText(tr("empty: the discrepancy's own difference"));
    m_amountCurrency = new QComboBox(this);
    m_amountCurrency->setObjectName(QStringLiteral("amountCurrency"));
    m_amountLabel = new QLabel(tr("&Amount (%1):").arg(currency), this);
    m_amountLabel->setBuddy(m_amount);
    auto *amountRow = new QHBoxLayout;
    amountRow->setContentsMargins(0, 0, 0, 0);
    amountRow->addWidget(m_amount, 1);
    amountRow->addWidget(m_amountCurrency);
    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("problem"));
    m_problem->setStyleSheet(QStringLiteral("color: #b00020"));
    m_problem->setWordWrap(true); // a long sentence wraps, not widens the dialog

    m_targetList = new QLabel(this);
    m_targetList->setObjectName(QStringLiteral("targets"));
    m_targetList->setWordWrap(true);
    m_targetList->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_targetsLabel = new QLabel(this);
    m_targetsLabel->setObjectName(QStringLiteral("targetsLabel"));

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Propose"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *form = new QFormLayout(this);
    auto *note =
        new QLabel(tr("A finance reviewer other than you must approve this before it takes "
                      "effect. It is bound to the records as they are now: if they change "
                      "first, the fix fails and must be proposed again."),
                   this);
    note->setWordWrap(true);
    form->addRow(note);
    form->addRow(tr("&Fix:"), m_kind);
    form->addRow(m_targetsLabel, m_targetList);
    form->addRow(tr("&Reason:"), m_reason);
    form->addRow(tr("&Comment:"), m_comment);
    form->addRow(m_amountLabel, amountRow);
    form->addRow(m_problem);
    form->addRow(m_buttons);

    connect(m_kind, &QComboBox::currentIndexChanged, this, &ProposeFixDialog::showTargets);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &ProposeFixDialog::updateState);
    connect(m_reason, &QComboBox::currentIndexChanged, this, &ProposeFixDialog::updateState);
    connect(m_comment, &QPlainTextEdit::textChanged, this, &ProposeFixDialog::updateState);
    connect(m_amount, &QLineEdit::textChanged, this, &ProposeFixDialog::updateState);
    connect(m_amountCurrency, &QComboBox::currentIndexChanged, this,
            &ProposeFixDialog::updateState);
    showTargets();
    updateState();
    resize(520, sizeHint().height());
}

QStringList ProposeFixDialog::currentTargets() const
{
    QStringList out;
    const int i = m_kind->currentIndex();
    if (i < 0 || i >= m_offers.size())
        return out;
    for (int t : m_offers.at(i).targets)
        out << m_targets.value(t);
    return out;
}

void ProposeFixDialog::showTargets()
{
    const QStringList targets = currentTargets();
    QStringList shown = targets.mid(0, 12);
    if (targets.size() > 12)
        shown << tr("… and %n more", nullptr, int(targets.size() - 12));
    m_targetList->setText(shown.join(QStringLiteral("\n")));
    // When another kind covers targets this one does not, say how many of them this one takes.
    QSet<int> offered;
    for (const FixOffer &o : m_offers)
        for (int t : o.targets)
            offered.insert(t);
    m_targetsLabel->setText(
        targets.size() == offered.size()
            ? tr("Targets (%1):").arg(targets.size())
            : tr("Targets (%1 of %2):").arg(targets.size()).arg(offered.size()));
}

std::optional<ProposeFixTwoCurrencies> ProposeFixDialog::currentTwoCurrencies(bool *mixed) const
{
    if (mixed)
        *mixed = false;
    const QString kind = m_kind->currentData().toString();
    if (kind != FixKind::AdjustFee && kind != FixKind::WriteOff)
        return std::nullopt;
    std::optional<ProposeFixTwoCurrencies> two;
    for (const QString &t : currentTargets()) {
        const auto it = m_twoCurrencies.constFind(t);
        if (it == m_twoCurrencies.constEnd())
            continue;
        if (two && *two != *it && mixed)
            *mixed = true;
        if (!two)
            two = *it;
    }
    return two;
}

void ProposeFixDialog::offerCurrencies(const std::optional<ProposeFixTwoCurrencies> &two)
{
    if (two == m_offeredCurrencies)
        return;
    m_offeredCurrencies = two;
    const QSignalBlocker block(m_amountCurrency);
    m_amountCurrency->clear();
    if (!two)
        return;
    // Nothing chosen at first: which of the two the amount is in is the person's to say.
    m_amountCurrency->addItem(tr("— currency —"), QString());
    m_amountCurrency->addItem(two->expectedIn, two->expectedIn);
    m_amountCurrency->setItemData(1, tr("Expected (the payment's currency)"), Qt::ToolTipRole);
    m_amountCurrency->addItem(two->settledIn, two->settledIn);
    m_amountCurrency->setItemData(2, tr("Settled (the settlement line's currency)"),
                                  Qt::ToolTipRole);
}

void ProposeFixDialog::updateState()
{
    const QString kind = m_kind->currentData().toString();
    bool mixed = false;
    const std::optional<ProposeFixTwoCurrencies> two = currentTwoCurrencies(&mixed);
    offerCurrencies(two);
    const bool amount =
        two || (!m_currency.isEmpty() && (kind == FixKind::AdjustFee || kind == FixKind::WriteOff));
    m_amount->setVisible(amount);
    m_amountLabel->setVisible(amount);
    m_amountCurrency->setVisible(two.has_value());
    m_amountLabel->setText(two ? tr("&Amount:") : tr("&Amount (%1):").arg(m_currency));
    m_amount->setPlaceholderText(two ? tr("required: the amount to book")
                                     : tr("empty: the discrepancy's own difference"));
    const QString text = m_amount->text().trimmed();
    const QString currency = two ? m_amountCurrency->currentData().toString() : m_currency;
    QString problem;
    if (m_reason->currentData().toString().isEmpty())
        problem = tr("Choose a reason.");
    else if (m_comment->toPlainText().trimmed().isEmpty())
        problem = tr("Write a comment.");
    else if (mixed)
        problem = tr("These discrepancies have amounts in different currencies: propose their "
                     "fixes one at a time.");
    else if (two && text.isEmpty())
        problem = tr("Give the amount to book: this discrepancy has amounts in two currencies "
                     "(expected in %1, settled in %2).")
                      .arg(two->expectedIn, two->settledIn);
    else if (two && currency.isEmpty())
        problem =
            tr("Choose the amount's currency: %1 or %2.").arg(two->expectedIn, two->settledIn);
    else if (amount && !text.isEmpty() && !Currency::parseDecimal(text, currency))
        problem = tr("The amount is not a valid %1 amount.").arg(currency);
    m_problem->setText(problem);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty() && m_kind->count() > 0);
}

QList<FixProposal> ProposeFixDialog::proposals(const QString &origin) const
{
    FixProposal p;
    p.kind = m_kind->currentData().toString();
    p.reasonCode = m_reason->currentData().toString();
    p.comment = m_comment->toPlainText().trimmed();
    p.origin = origin;
    bool mixed = false;
    const std::optional<ProposeFixTwoCurrencies> two = currentTwoCurrencies(&mixed);
    const QString text = m_amount->text().trimmed();
    if (two) {
        // Both, or nothing: the service refuses the one without the other.
        p.currency = m_amountCurrency->currentData().toString();
        if (mixed || text.isEmpty() ||
            (p.currency != two->expectedIn && p.currency != two->settledIn))
            return {};
        auto minor = Currency::parseDecimal(text, p.currency);
        if (!minor)
            return {};
        p.amountMinor = *minor;
    } else if (m_amount->isVisible() && !text.isEmpty()) {
        auto minor = Currency::parseDecimal(text, m_currency);
        if (!minor)
            return {};
        p.amountMinor = *minor;
    }
    QList<FixProposal> out;
    for (const QString &t : currentTargets()) {
        p.targetId = t;
        out.append(p);
    }
    return out;
}

} // namespace OncePay
