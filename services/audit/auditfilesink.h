#pragma once

// Where an audit export's bytes go (DESIGN.md §6): its file, hashed as they are written, the
// write and the hash on a thread of the sink's own. Reading, checking and encoding the rows
// (the exporting thread) and putting them into the file (this thread) then overlap: on two
// cores the file's write and SHA-256 no longer add to the export's time. The digest is of
// exactly the bytes that reached the file, so the manifest states the file's digest without
// reading it back.
//
// write() copies the chunk and queues it; at most kQueuedChunks wait, a writer ahead of the
// disk blocks until one is taken. The first failed write is kept: later writes fail with its
// message, and finish() returns it.
//
// Thread contract: write(), finish() and the getters on one thread (the exporting one); the
// file is touched only by the sink's thread until finish() returns or the sink is destroyed,
// then by the caller again (commit or cancel it only after that).

#include "core/result.h"

#include <QByteArray>
#include <QFileDevice>
#include <QIODevice>

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

typedef struct evp_md_ctx_st EVP_MD_CTX;

namespace OncePay {

// Streaming SHA-256 through OpenSSL (SHA extensions where the CPU has them: several times
// QCryptographicHash's speed, which matters for a file of hundreds of megabytes).
class Sha256Stream {
public:
    Sha256Stream();
    ~Sha256Stream();
    Sha256Stream(const Sha256Stream &) = delete;
    Sha256Stream &operator=(const Sha256Stream &) = delete;
    void add(const char *data, qint64 len);
    QString hex(); // lowercase; once, after the last add()

private:
    EVP_MD_CTX *m_ctx;
};

// The SHA-256 (lowercase hex) and size of a whole file read from the start.
Result<QString> sha256OfFile(QIODevice &file, qint64 *bytes);

class AuditFileSink : public QIODevice {
public:
    static constexpr int kQueuedChunks = 4;

    explicit AuditFileSink(QFileDevice *file);
    ~AuditFileSink() override; // abandon() unless finished
    bool isSequential() const override { return true; }

    // Waits until every queued byte is in the file (or a write failed) and stops the thread.
    Result<void> finish();
    // Drops what still waits and stops the thread (a cancelled or refused export): the file is
    // the caller's again, to cancel.
    void abandon();
    QString hex() const { return m_hex; } // after finish()
    qint64 written() const;

protected:
    qint64 readData(char *, qint64) override { return -1; }
    qint64 writeData(const char *data, qint64 len) override;

private:
    void run();
    void drain();
    void failed(const QString &why);
    void stop();

    QFileDevice *m_file;
    Sha256Stream m_hash; // the sink thread's until it stops
    QString m_hex;

    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<QByteArray> m_queue;
    bool m_closing = false; // no more chunks: write what waits, then stop
    bool m_dropping = false;
    QString m_error; // the first failed write's
    qint64 m_written = 0;
    std::thread m_thread;
};

} // namespace OncePay
