#pragma once

// Builds the channel adapters from the configuration ([channel.NAME] sections and
// ONCEPAY_<NAME>_* variables) and hands them out by name.
// Thread contract: build once; lookups are const and thread-safe.

#include "channeladapter.h"
#include "config/appconfig.h"

#include <QMap>
#include <memory>

namespace OncePay {

class ChannelRegistry {
public:
    explicit ChannelRegistry(const AppConfig &config);

    // nullptr for an unknown channel name.
    const ChannelAdapter *adapter(const QString &name) const;
    QStringList names() const { return m_adapters.keys(); }

    // Settings for one channel as the adapters read them: `webhook_secret` (comma-separated
    // for rotation) or `webhook_secrets`, `tolerance_seconds`, and the rest in `extra`.
    static ChannelSettings settingsFor(const AppConfig &config, const QString &channel);

    // How a channel's callbacks are signed and what the gateway checks before it stores one,
    // in the channel's own header names and formula (the same in every language), for people
    // reading a stored callback; empty for a channel OncePay does not have.
    static QString signatureScheme(const QString &channel);

private:
    QMap<QString, std::shared_ptr<const ChannelAdapter>> m_adapters;
};

} // namespace OncePay
