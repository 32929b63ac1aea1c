#include "proposefixdialog.h"

#include "core/money.h"
#include "fixes/fixlabels.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSet>

namespace OncePay {

ProposeFixDialog::ProposeFixDialog(const QList<FixOffer> &offers, const QStringList &targets,
                                   const QString &currency, QWidget *parent)
    : QDialog(parent)
    , m_offers(offers)
    , m_targets(targets)
    , m_currency(currency)
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
    m_amountLabel = new QLabel(tr("&Amount (%1):").arg(currency), this);
    m_amountLabel->setBuddy(m_amount);
    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("problem"));
    m_problem->setStyleSheet(QStringLiteral("color: #b00020"));

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
    form->addRow(m_amountLabel, m_amount);
    form->addRow(m_problem);
    form->addRow(m_buttons);

    connect(m_kind, &QComboBox::currentIndexChanged, this, &ProposeFixDialog::showTargets);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &ProposeFixDialog::updateState);
    connect(m_reason, &QComboBox::currentIndexChanged, this, &ProposeFixDialog::updateState);
    connect(m_comment, &QPlainTextEdit::textChanged, this, &ProposeFixDialog::updateState);
    connect(m_amount, &QLineEdit::textChanged, this, &ProposeFixDialog::updateState);
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

void ProposeFixDialog::updateState()
{
    const QString kind = m_kind->currentData().toString();
    const bool amount =
        !m_currency.isEmpty() && (kind == FixKind::AdjustFee || kind == FixKind::WriteOff);
    m_amount->setVisible(amount);
    m_amountLabel->setVisible(amount);
    QString problem;
    if (m_reason->currentData().toString().isEmpty())
        problem = tr("Choose a reason.");
    else if (m_comment->toPlainText().trimmed().isEmpty())
        problem = tr("Write a comment.");
    else if (amount && !m_amount->text().trimmed().isEmpty() &&
             !Currency::parseDecimal(m_amount->text().trimmed(), m_currency))
        problem = tr("The amount is not a valid %1 amount.").arg(m_currency);
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
    if (m_amount->isVisible() && !m_amount->text().trimmed().isEmpty()) {
        auto minor = Currency::parseDecimal(m_amount->text().trimmed(), m_currency);
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
