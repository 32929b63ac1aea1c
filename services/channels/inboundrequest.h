#pragma once

// A webhook exactly as it arrived: raw body bytes (signatures cover bytes, not parsed JSON)
// and headers with lower-cased names.
// Thread contract: plain value.

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace OncePay {

struct InboundRequest {
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers; // names lower-cased, order kept
    QString remote;                               // peer address, for the log

    QByteArray header(const QByteArray &lowerName) const
    {
        for (const auto &h : headers)
            if (h.first == lowerName)
                return h.second;
        return {};
    }
    QList<QByteArray> headerValues(const QByteArray &lowerName) const
    {
        QList<QByteArray> out;
        for (const auto &h : headers)
            if (h.first == lowerName)
                out << h.second;
        return out;
    }
    void addHeader(const QByteArray &name, const QByteArray &value)
    {
        headers.append({name.trimmed().toLower(), value.trimmed()});
    }
};

} // namespace OncePay
