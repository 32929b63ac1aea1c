#pragma once

// What really happened at the channels during a simulation — every capture the channel
// made (including captures OncePay rejected as stale, because the money moved) and every
// refund — from which the channels' settlement statements are written.
// Thread contract: plain values.

#include <QList>
#include <QMap>
#include <QString>

namespace OncePay {

struct ChannelCapture {
    QString channel;
    QString channelTxnId;
    QString orderId;
    qint64 amountMinor = 0; // what the channel captured (may differ from the order)
    QString currency;
    qint64 capturedAtMs = 0;
    bool refunded = false;
    QString refundId;
    qint64 refundedAtMs = 0;
};

struct StatementPlan {
    quint64 seed = 0;
    qint64 startMs = 0;
    int days = 0;
    QString outDir;
    QList<ChannelCapture> captures;
};

struct PlantedStatements {
    QStringList files;             // statement CSVs written, one per channel and period
    QString feeScheduleFile;       // the fee-rate changes the statements used
    QMap<QString, qint64> defects; // planted defects by discrepancy kind
    QString plantedManifest;       // JSON listing every planted defect (txn id, kind)
};

} // namespace OncePay
