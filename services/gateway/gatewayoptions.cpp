#include "gatewayoptions.h"

#include "config/appconfig.h"

namespace OncePay {

namespace {

// A [gateway] number, in the range AppConfig::load has already checked a file's value against
// (options built in code come through here too).
Result<void> readInt(const QMap<QString, QString> &s, const QString &key, auto *out)
{
    if (!s.contains(key))
        return {};
    const auto range = AppConfig::numberRange(QStringLiteral("gateway"), key);
    bool ok = false;
    const qint64 v = s.value(key).trimmed().toLongLong(&ok);
    if (!range || !ok || v < range->min || v > range->max)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("[gateway] %1 = '%2' is not a number in %3..%4")
                             .arg(key, s.value(key).left(40))
                             .arg(range ? range->min : 0)
                             .arg(range ? range->max : 0));
    *out = decltype(+*out)(v);
    return {};
}

} // namespace

bool GatewayOptions::parseListen(const QString &text, QHostAddress *address, quint16 *port)
{
    const qsizetype colon = text.lastIndexOf(u':');
    if (colon < 0)
        return false;
    QString host = text.left(colon).trimmed();
    bool ok = false;
    const int p = text.mid(colon + 1).toInt(&ok);
    if (!ok || p < 0 || p > 65535)
        return false;
    if (host.startsWith(u'[') && host.endsWith(u']'))
        host = host.mid(1, host.size() - 2);
    QHostAddress a;
    if (host.isEmpty() || host == u"*")
        a = QHostAddress::Any;
    else if (host == u"localhost")
        a = QHostAddress::LocalHost;
    else if (!a.setAddress(host))
        return false;
    *address = a;
    *port = quint16(p);
    return true;
}

QString GatewayOptions::listenText(quint16 boundPort) const
{
    const QString host = address.protocol() == QAbstractSocket::IPv6Protocol
                             ? u'[' + address.toString() + u']'
                             : address.toString();
    return host + u':' + QString::number(boundPort);
}

Result<GatewayOptions> GatewayOptions::fromConfig(const QMap<QString, QString> &s)
{
    static const QStringList known = AppConfig::sectionKeys(QStringLiteral("gateway"));
    for (auto it = s.cbegin(); it != s.cend(); ++it)
        if (!known.contains(it.key()))
            return makeError(ErrorCode::Invalid,
                             QStringLiteral("[gateway] unknown key '%1'").arg(it.key().left(40)));
    GatewayOptions o;
    if (s.contains(QStringLiteral("listen")) &&
        !parseListen(s.value(QStringLiteral("listen")), &o.address, &o.port))
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("[gateway] listen = '%1' is not ADDR:PORT")
                             .arg(s.value(QStringLiteral("listen")).left(60)));
    for (auto r : {readInt(s, QStringLiteral("batch_wait_ms"), &o.batchWaitMs),
                   readInt(s, QStringLiteral("max_batch"), &o.maxBatch),
                   readInt(s, QStringLiteral("max_queue"), &o.maxQueue),
                   readInt(s, QStringLiteral("max_body_bytes"), &o.maxBodyBytes),
                   readInt(s, QStringLiteral("max_connections"), &o.maxConnections),
                   readInt(s, QStringLiteral("read_timeout_ms"), &o.readTimeoutMs),
                   readInt(s, QStringLiteral("idle_timeout_ms"), &o.idleTimeoutMs),
                   readInt(s, QStringLiteral("drain_timeout_ms"), &o.drainTimeoutMs)})
        if (!r)
            return r.error();
    o.maxBodyFromConfig = s.contains(QStringLiteral("max_body_bytes"));
    return o;
}

} // namespace OncePay
