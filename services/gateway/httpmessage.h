#pragma once

// HTTP/1.1 requests and responses as plain values, passed between the gateway's HTTP server
// (httpserver.h) and the routes that answer them (gateway.h).
// Thread contract: plain values, safe to move between threads.

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>

namespace OncePay {

struct HttpRequest {
    QByteArray method;                            // "POST"
    QByteArray target;                            // as sent: path and query
    QByteArray path;                              // target without the query
    QList<QPair<QByteArray, QByteArray>> headers; // names lower-cased, order kept
    QByteArray body;
    QString remote; // peer address, for the log

    QByteArray header(const QByteArray &lowerName) const
    {
        for (const auto &h : headers)
            if (h.first == lowerName)
                return h.second;
        return {};
    }
};

struct HttpResponse {
    int status = 200;
    QByteArray contentType = QByteArrayLiteral("application/json");
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers; // extra headers (Allow, Retry-After)
    // For the access log only: the outcome and callback id; never a body or a secret.
    QString note;

    static HttpResponse json(int status, const QJsonObject &object, const QString &note = {});
    static HttpResponse text(int status, const QByteArray &text, const QString &note = {});
    // {"error": reason, "message": message}
    static HttpResponse error(int status, const QString &reason, const QString &message);
};

// "OK", "Not Found", ... ("Unknown" for a code we never send).
QByteArray httpReasonPhrase(int status);

} // namespace OncePay
