#include "httpmessage.h"

#include <QJsonDocument>

namespace OncePay {

HttpResponse HttpResponse::json(int status, const QJsonObject &object, const QString &note)
{
    HttpResponse r;
    r.status = status;
    r.body = QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
    r.note = note;
    return r;
}

HttpResponse HttpResponse::text(int status, const QByteArray &text, const QString &note)
{
    HttpResponse r;
    r.status = status;
    r.contentType = QByteArrayLiteral("text/plain; charset=utf-8");
    r.body = text;
    r.note = note;
    return r;
}

HttpResponse HttpResponse::error(int status, const QString &reason, const QString &message)
{
    return json(status, {{QStringLiteral("error"), reason}, {QStringLiteral("message"), message}},
                reason);
}

QByteArray httpReasonPhrase(int status)
{
    switch (status) {
    case 100: return QByteArrayLiteral("Continue");
    case 200: return QByteArrayLiteral("OK");
    case 400: return QByteArrayLiteral("Bad Request");
    case 404: return QByteArrayLiteral("Not Found");
    case 405: return QByteArrayLiteral("Method Not Allowed");
    case 408: return QByteArrayLiteral("Request Timeout");
    case 411: return QByteArrayLiteral("Length Required");
    case 413: return QByteArrayLiteral("Content Too Large");
    case 431: return QByteArrayLiteral("Request Header Fields Too Large");
    case 500: return QByteArrayLiteral("Internal Server Error");
    case 503: return QByteArrayLiteral("Service Unavailable");
    case 505: return QByteArrayLiteral("HTTP Version Not Supported");
    }
    return QByteArrayLiteral("Unknown");
}

} // namespace OncePay
