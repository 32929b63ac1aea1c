#include "keychainstore.h"

#include <QEventLoop>
#include <QPointer>
#include <QTimer>

#ifdef ONCEPAY_HAVE_QTKEYCHAIN
#include <qt6keychain/keychain.h>
#endif

#include <spdlog/spdlog.h>

namespace OncePay {

namespace {

constexpr int kTimeoutMs = 5000;

#ifdef ONCEPAY_HAVE_QTKEYCHAIN
struct Answer {
    bool finished = false;
    QKeychain::Error error = QKeychain::NoError;
    QString message;
    QString text;
};

// Runs one job for `key` to its end (or the time-out) in a local event loop, never with the
// plain-file fallback; the job deletes itself.
Answer run(QKeychain::Job *job, const QString &key)
{
    job->setKey(key);
    job->setInsecureFallback(false);
    Answer answer;
    QEventLoop loop;
    QObject::connect(job, &QKeychain::Job::finished, &loop, [&](QKeychain::Job *j) {
        answer.finished = true;
        answer.error = j->error();
        answer.message = j->errorString();
        if (auto *r = qobject_cast<QKeychain::ReadPasswordJob *>(j))
            answer.text = r->textData();
        loop.quit();
    });
    QTimer::singleShot(kTimeoutMs, &loop, &QEventLoop::quit);
    job->start();
    loop.exec();
    if (!answer.finished) {
        QObject::disconnect(job, nullptr, &loop, nullptr);
        answer.error = QKeychain::NoBackendAvailable;
        answer.message =
            QStringLiteral("the keychain did not answer within %1 s").arg(kTimeoutMs / 1000);
    }
    return answer;
}

Error keychainError(const Answer &a, const QString &key)
{
    switch (a.error) {
    case QKeychain::EntryNotFound:
        return makeError(ErrorCode::NotFound, QStringLiteral("no keychain entry %1").arg(key),
                         QStringLiteral("no_keychain_entry"));
    case QKeychain::NoBackendAvailable:
    case QKeychain::NotImplemented:
        return makeError(ErrorCode::Unavailable,
                         QStringLiteral("no keychain is available: %1").arg(a.message),
                         QStringLiteral("no_keychain"));
    case QKeychain::AccessDenied:
    case QKeychain::AccessDeniedByUser:
        return makeError(ErrorCode::Forbidden,
                         QStringLiteral("the keychain refused access to %1").arg(key));
    default:
        return makeError(ErrorCode::Internal,
                         QStringLiteral("keychain entry %1: %2").arg(key, a.message));
    }
}
#endif

} // namespace

KeychainStore::KeychainStore(const QString &service)
    : m_service(service)
{}

bool KeychainStore::available() const
{
#ifdef ONCEPAY_HAVE_QTKEYCHAIN
    if (m_available < 0) {
        // QtKeychain 0.13 has no isAvailable(): reading an entry that does not exist tells
        // a working backend (EntryNotFound) from none.
        const Answer a =
            run(new QKeychain::ReadPasswordJob(m_service), QStringLiteral("oncepay-probe"));
        m_available = a.error == QKeychain::NoError || a.error == QKeychain::EntryNotFound;
        spdlog::info("keychain {}",
                     m_available ? "available" : "not available: " + a.message.toStdString());
    }
    return m_available == 1;
#else
    return false;
#endif
}

Result<QString> KeychainStore::read(const QString &key)
{
#ifdef ONCEPAY_HAVE_QTKEYCHAIN
    const Answer a = run(new QKeychain::ReadPasswordJob(m_service), key);
    if (a.error != QKeychain::NoError)
        return keychainError(a, key);
    return a.text;
#else
    return makeError(ErrorCode::Unavailable,
                     QStringLiteral("this build has no keychain support (QtKeychain)"),
                     QStringLiteral("no_keychain"));
#endif
}

Result<void> KeychainStore::write(const QString &key, const QString &secret)
{
#ifdef ONCEPAY_HAVE_QTKEYCHAIN
    auto *job = new QKeychain::WritePasswordJob(m_service);
    job->setTextData(secret);
    const Answer a = run(job, key);
    if (a.error != QKeychain::NoError)
        return keychainError(a, key);
    spdlog::info("keychain entry {} written", key.toStdString());
    return {};
#else
    Q_UNUSED(secret);
    return read(key).error();
#endif
}

Result<void> KeychainStore::remove(const QString &key)
{
#ifdef ONCEPAY_HAVE_QTKEYCHAIN
    const Answer a = run(new QKeychain::DeletePasswordJob(m_service), key);
    if (a.error != QKeychain::NoError && a.error != QKeychain::EntryNotFound)
        return keychainError(a, key);
    return {};
#else
    return read(key).error();
#endif
}

} // namespace OncePay
