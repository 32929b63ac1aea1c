#include "channelregistry.h"

#include "stripe/stripeadapter.h"

namespace OncePay {

ChannelSettings ChannelRegistry::settingsFor(const AppConfig &config, const QString &channel) {
    ChannelSettings s;
    const auto section = config.channels.value(channel);
    for (const QString &key :
         {QStringLiteral("webhook_secret"), QStringLiteral("webhook_secrets")}) {
        for (const QString &secret : section.value(key).split(u',', Qt::SkipEmptyParts))
            if (!s.secrets.contains(secret.trimmed()))
                s.secrets << secret.trimmed();
    }
    bool ok = false;
    const qint64 tolerance = section.value(QStringLiteral("tolerance_seconds")).toLongLong(&ok);
    if (ok && tolerance > 0)
        s.toleranceMs = tolerance * 1000;
    s.extra = section;
    s.extra.remove(QStringLiteral("webhook_secret"));
    s.extra.remove(QStringLiteral("webhook_secrets"));
    return s;
}

ChannelRegistry::ChannelRegistry(const AppConfig &config) {
    m_adapters.insert(QStringLiteral("stripe"), std::make_shared<StripeAdapter>(
                                                    settingsFor(config, QStringLiteral("stripe"))));
}

const ChannelAdapter *ChannelRegistry::adapter(const QString &name) const {
    auto it = m_adapters.constFind(name);
    return it == m_adapters.constEnd() ? nullptr : it->get();
}

} // namespace OncePay
