#pragma once

// Table models of the order investigation page, each over the plain rows of an OrderPicture
// (or the search hits): search hits, timeline, callback messages, payments, ledger entries,
// idempotency records, refund obligations, purchase and logistics orders and audit rows.
// Thread contract: GUI thread only; fed with values loaded elsewhere.

#include "common/rowtablemodel.h"
#include "investigation/orderpicture.h"
#include "investigation/ordersearch.h"

#include <QHash>

namespace OncePay {

class OrderHitModel : public RowTableModel<OrderHit> {
    Q_OBJECT
public:
    explicit OrderHitModel(QObject *parent = nullptr);
};

class TimelineModel : public RowTableModel<TimelineEntry> {
    Q_OBJECT
public:
    enum Column { Time, Version, Event, Detail, Cause, Actor };
    explicit TimelineModel(QObject *parent = nullptr);

    static QString describe(const TimelineEntry &e);
    // The Detail column's text: an engine sentence in the interface language, a callback's
    // kind, or someone's own words quoted after a lead-in (common/reasontext.h); `auditRole` is
    // the actor role of an audit row's entry, when known.
    static QString detailText(const TimelineEntry &e, const QString &auditRole = {});
    // The order's audit rows (OrderPicture::audit), for the actor role of each audit row on the
    // timeline, so that an audit row's reason says whose words it is (a shop's, a staff
    // member's, the engine's). Set before the rows; everything that shows a timeline does.
    void setAuditRows(const QList<AuditRow> &audit);

private:
    QHash<QString, QString> m_auditRoles;
};

class MessageModel : public RowTableModel<CallbackMessageRow> {
    Q_OBJECT
public:
    explicit MessageModel(QObject *parent = nullptr);
};

class PaymentModel : public RowTableModel<PaymentRow> {
    Q_OBJECT
public:
    explicit PaymentModel(QObject *parent = nullptr);
};

class LedgerModel : public RowTableModel<LedgerRow> {
    Q_OBJECT
public:
    explicit LedgerModel(QObject *parent = nullptr);
};

class IdempotencyModel : public RowTableModel<IdempotencyRow> {
    Q_OBJECT
public:
    explicit IdempotencyModel(QObject *parent = nullptr);
};

class RefundModel : public RowTableModel<RefundObligationRow> {
    Q_OBJECT
public:
    explicit RefundModel(QObject *parent = nullptr);
};

class FulfilmentModel : public RowTableModel<FulfilmentRow> {
    Q_OBJECT
public:
    explicit FulfilmentModel(QObject *parent = nullptr);
};

class AuditRowModel : public RowTableModel<AuditRow> {
    Q_OBJECT
public:
    explicit AuditRowModel(QObject *parent = nullptr);
};

} // namespace OncePay
