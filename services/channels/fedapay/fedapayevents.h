#pragma once

// Realistic FedaPay webhook bodies (name/object/entity with a v1/transaction entity, as
// FedaPay posts them) for the tests, the simulator and the benchmarks. Our order and
// attempt ids go into custom_metadata as the platform's checkout puts them there.
// Thread contract: pure functions; safe from any thread.

#include <QByteArray>
#include <QString>

namespace OncePay::FedaPayEvents {

struct Params {
    qint64 transactionId = 250828;
    QString reference = QStringLiteral("trx_Vo4_1719781861514");
    QString orderId;
    QString attemptId;
    qint64 amount = 0; // whole XOF (no minor unit)
    qint64 fees = 0;
    qint64 timestampMs = 1719781967627; // when the transaction reached its state
};

// `status` is approved, declined, canceled, refunded (or any other FedaPay status);
// the event name is "transaction." + status.
QByteArray transactionEvent(const QString &status, const Params &p);
QByteArray approved(const Params &p);
QByteArray declined(const Params &p);
QByteArray canceled(const Params &p);
QByteArray refunded(const Params &p);

} // namespace OncePay::FedaPayEvents
