#include "channelregistry.h"

#include "fedapay/fedapayadapter.h"
#include "kakaopay/kakaopayadapter.h"
#include "paypal/paypaladapter.h"
#include "stripe/stripeadapter.h"

#include <spdlog/spdlog.h>

namespace OncePay {

ChannelSettings ChannelRegistry::settingsFor(const AppConfig &config, const QString &channel)
{
    ChannelSettings s;
    const auto section = config.channels.value(channel);
    for (const QString &key :
         {QStringLiteral("webhook_secret"), QStringLiteral("webhook_secrets")}) {
        for (const QString &raw : section.value(key).split(u',', Qt::SkipEmptyParts)) {
            const QString secret = raw.trimmed();
            if (!secret.isEmpty() && !s.secrets.contains(secret))
                s.secrets << secret;
        }
    }
    // AppConfig::load refuses a tolerance that is not a whole number of seconds up to a week;
    // one set around it (a configuration built in code) keeps the default, and says so.
    if (const QString text = section.value(QStringLiteral("tolerance_seconds")).trimmed();
        !text.isEmpty()) {
        bool ok = false;
        const qint64 tolerance = text.toLongLong(&ok);
        if (ok && tolerance > 0 && tolerance <= 7 * 24 * 3600)
            s.toleranceMs = tolerance * 1000;
        else
            spdlog::warn("[channel.{}] tolerance_seconds '{}' is not a whole number from 1 to "
                         "604800; using {} s",
                         channel.toStdString(), text.left(40).toStdString(), s.toleranceMs / 1000);
    }
    s.extra = section;
    s.extra.remove(QStringLiteral("webhook_secret"));
    s.extra.remove(QStringLiteral("webhook_secrets"));
    return s;
}

ChannelRegistry::ChannelRegistry(const AppConfig &config)
{
    auto add = [&](std::shared_ptr<const ChannelAdapter> adapter) {
        m_adapters.insert(adapter->name(), std::move(adapter));
    };
    add(std::make_shared<StripeAdapter>(settingsFor(config, QStringLiteral("stripe"))));
    add(std::make_shared<FedaPayAdapter>(settingsFor(config, QStringLiteral("fedapay"))));
    add(std::make_shared<KakaoPayAdapter>(settingsFor(config, QStringLiteral("kakaopay"))));
    add(std::make_shared<PayPalAdapter>(settingsFor(config, QStringLiteral("paypal"))));
}

QString ChannelRegistry::signatureScheme(const QString &channel)
{
    if (channel == u"stripe")
        return StripeAdapter::signatureScheme();
    if (channel == u"fedapay")
        return FedaPayAdapter::signatureScheme();
    if (channel == u"kakaopay")
        return KakaoPayAdapter::signatureScheme();
    if (channel == u"paypal")
        return PayPalAdapter::signatureScheme();
    return {};
}

const ChannelAdapter *ChannelRegistry::adapter(const QString &name) const
{
    auto it = m_adapters.constFind(name);
    return it == m_adapters.constEnd() ? nullptr : it->get();
}

} // namespace OncePay
