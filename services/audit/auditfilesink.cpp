#include "auditfilesink.h"

#include <openssl/evp.h>
#include <spdlog/spdlog.h>

namespace OncePay {

Sha256Stream::Sha256Stream()
    : m_ctx(EVP_MD_CTX_new())
{
    EVP_DigestInit_ex(m_ctx, EVP_sha256(), nullptr);
}

Sha256Stream::~Sha256Stream()
{
    EVP_MD_CTX_free(m_ctx);
}

void Sha256Stream::add(const char *data, qint64 len)
{
    EVP_DigestUpdate(m_ctx, data, size_t(len));
}

QString Sha256Stream::hex()
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    EVP_DigestFinal_ex(m_ctx, md, &n);
    return QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(md), int(n)).toHex());
}

Result<QString> sha256OfFile(QIODevice &file, qint64 *bytes)
{
    Sha256Stream hash;
    QByteArray chunk(1 << 20, Qt::Uninitialized);
    qint64 total = 0;
    for (;;) {
        const qint64 n = file.read(chunk.data(), chunk.size());
        if (n < 0)
            return makeError(ErrorCode::Internal, file.errorString(), QStringLiteral("file_error"));
        if (n == 0)
            break;
        hash.add(chunk.constData(), n);
        total += n;
    }
    if (bytes)
        *bytes = total;
    return hash.hex();
}

AuditFileSink::AuditFileSink(QFileDevice *file)
    : m_file(file)
{
    open(QIODevice::WriteOnly);
    m_thread = std::thread([this] { run(); });
}

AuditFileSink::~AuditFileSink()
{
    abandon();
}

void AuditFileSink::abandon()
{
    {
        std::lock_guard lock(m_mutex);
        m_dropping = true;
    }
    stop();
}

void AuditFileSink::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_closing = true;
    }
    m_changed.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

Result<void> AuditFileSink::finish()
{
    stop();
    std::lock_guard lock(m_mutex);
    if (m_dropping)
        return makeError(ErrorCode::Internal,
                         QStringLiteral("export: the file was abandoned; it holds part of the"
                                        " export at most"),
                         QStringLiteral("write_failed"));
    if (!m_error.isEmpty())
        return makeError(ErrorCode::Internal,
                         QStringLiteral("export: cannot write the file: %1").arg(m_error),
                         QStringLiteral("write_failed"));
    if (m_hex.isEmpty()) // a second finish() states the same digest
        m_hex = m_hash.hex();
    return {};
}

qint64 AuditFileSink::written() const
{
    std::lock_guard lock(m_mutex);
    return m_written;
}

qint64 AuditFileSink::writeData(const char *data, qint64 len)
{
    QByteArray chunk(data, len); // copied here: the writer reuses its buffer at once
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] {
        return !m_error.isEmpty() || m_closing || m_queue.size() < size_t(kQueuedChunks);
    });
    if (!m_error.isEmpty() || m_closing) {
        setErrorString(m_error.isEmpty() ? QStringLiteral("the export's file is closed") : m_error);
        return -1;
    }
    m_queue.push_back(std::move(chunk));
    lock.unlock();
    m_changed.notify_all();
    return len;
}

void AuditFileSink::run()
{
    try {
        drain();
    } catch (const std::exception &e) { // e.g. no memory for a chunk: the export fails
        failed(QStringLiteral("the writer stopped: %1").arg(QString::fromUtf8(e.what())));
    } catch (...) {
        failed(QStringLiteral("the writer stopped on an unknown error"));
    }
}

void AuditFileSink::failed(const QString &why)
{
    std::lock_guard lock(m_mutex);
    m_error = why; // never empty: finish() must not take the file for whole
    spdlog::error("audit export: {}", why.toStdString());
    m_queue.clear();
    m_changed.notify_all();
}

void AuditFileSink::drain()
{
    for (;;) {
        QByteArray chunk;
        {
            std::unique_lock lock(m_mutex);
            m_changed.wait(lock, [this] { return !m_queue.empty() || m_closing; });
            if (m_dropping || m_queue.empty())
                return; // closing, nothing left (or dropped)
            chunk = std::move(m_queue.front());
            m_queue.pop_front();
        }
        m_changed.notify_all(); // room for the writer
        const qint64 n = m_file->write(chunk);
        if (n == chunk.size())
            m_hash.add(chunk.constData(), n); // outside the lock: the writer goes on meanwhile
        std::lock_guard lock(m_mutex);
        if (n != chunk.size()) {
            m_error = m_file->errorString();
            spdlog::error("audit export: writing the file failed: {}", m_error.toStdString());
            m_queue.clear();
            m_changed.notify_all();
            return;
        }
        m_written += n;
    }
}

} // namespace OncePay
