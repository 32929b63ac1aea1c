#include "auditchain.h"

#include "audittrailquery.h"

#include <QCryptographicHash>
#include <QVariant>
#include <QtEndian>

#include <openssl/evp.h>

#include <charconv>
#include <cstring>

namespace OncePay::AuditChain {

namespace {

// The seal message's frames (the rows' encoding is encodeInto's, below).
void frame(QByteArray &out, char tag, QByteArrayView bytes)
{
    out.append(tag);
    char len[4];
    qToBigEndian(quint32(bytes.size()), len);
    out.append(len, 4);
    out.append(bytes);
}

void text(QByteArray &out, const QString &s)
{
    frame(out, 'S', s.toUtf8());
}

void integer(QByteArray &out, qint64 v)
{
    frame(out, 'I', QByteArray::number(v));
}

std::optional<QString> optionalText(const QVariant &v)
{
    if (v.isNull())
        return std::nullopt;
    return v.toString();
}

// Qt's drivers bind a null QString as SQL NULL; an empty value that is present must stay
// distinct from NULL, so it is bound as a non-null empty string.
QVariant bindText(const QString &s)
{
    return s.isNull() ? QVariant(QStringLiteral("")) : QVariant(s);
}

QVariant bindOptional(const std::optional<QString> &s)
{
    return s ? bindText(*s) : QVariant();
}

} // namespace

QString genesisHash()
{
    return QString(64, u'0');
}

// The row's text as UTF-8 (QString::toUtf8, as the chain has always been hashed), then the one
// encoder below.
QByteArray canonicalEncoding(const AuditLogRow &r)
{
    const AuditLogRowUtf8 utf8(r);
    return canonicalEncoding(utf8.bytes());
}

QString computeHash(const AuditLogRow &row)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(canonicalEncoding(row), QCryptographicHash::Sha256).toHex());
}

QByteArray canonicalEncoding(const AuditLogRowBytes &r)
{
    QByteArray out;
    out.reserve(256);
    encodeInto(out, r);
    return out;
}

namespace {

// encodeInto's pieces: the bytes of one frame (tag, big-endian length, bytes) at `p`.
char *putFrame(char *p, char tag, const char *bytes, qsizetype size)
{
    *p++ = tag;
    qToBigEndian(quint32(size), p);
    p += 4;
    if (size)
        std::memcpy(p, bytes, size_t(size));
    return p + size;
}

struct Decimal {
    char digits[24];
    qsizetype size = 0;
    explicit Decimal(qint64 v)
    {
        size =
            std::to_chars(digits, digits + sizeof digits, v).ptr - digits; // as QByteArray::number
    }
};

constexpr QByteArrayView kRowVersion = "oncepay.audit.v1";

} // namespace

// One size computed, one resize (the capacity kept from row to row), the frames written in
// place: no allocation per row once the buffer has grown to the largest row.
void encodeInto(QByteArray &out, const AuditLogRowBytes &r)
{
    const Decimal seq(r.seq), occurred(r.occurredAt), recorded(r.recordedAt);
    const QByteArrayView who[] = {r.actor, r.actorRole, r.action, r.entityKind, r.entityId};
    const std::optional<QByteArrayView> nullables[] = {r.orderId, r.callbackId, r.beforeJson,
                                                       r.afterJson, r.reason};
    constexpr qsizetype kFrame = 5; // tag + length
    qsizetype size = 16 * kFrame + kRowVersion.size() + seq.size + r.eventId.size() +
                     occurred.size + recorded.size + r.prevHash.size();
    for (const QByteArrayView &t : who)
        size += t.size();
    for (const auto &n : nullables)
        size += n ? n->size() : 0;
    out.resize(size);
    char *p = out.data();
    p = putFrame(p, 'S', kRowVersion.data(), kRowVersion.size());
    p = putFrame(p, 'I', seq.digits, seq.size);
    p = putFrame(p, 'S', r.eventId.data(), r.eventId.size());
    p = putFrame(p, 'I', occurred.digits, occurred.size);
    p = putFrame(p, 'I', recorded.digits, recorded.size);
    for (const QByteArrayView &t : who)
        p = putFrame(p, 'S', t.data(), t.size());
    for (const auto &n : nullables)
        p = n ? putFrame(p, 'S', n->data(), n->size()) : putFrame(p, 'N', nullptr, 0);
    p = putFrame(p, 'S', r.prevHash.data(), r.prevHash.size());
    Q_ASSERT(p == out.constData() + size);
}

QByteArray computeHash(const AuditLogRowBytes &row)
{
    return QCryptographicHash::hash(canonicalEncoding(row), QCryptographicHash::Sha256).toHex();
}

QByteArray sealMessage(qint64 seq, const QString &headHash)
{
    QByteArray out;
    text(out, QStringLiteral("oncepay.audit.seal.v1"));
    integer(out, seq);
    text(out, headHash);
    return out;
}

QByteArray sealMessageV2(qint64 seq, const QString &headHash, const QString &sealedBy,
                         qint64 sealedAt)
{
    QByteArray out;
    text(out, QStringLiteral("oncepay.audit.seal.v2"));
    integer(out, seq);
    text(out, headHash);
    text(out, sealedBy);
    integer(out, sealedAt);
    return out;
}

QString columns()
{
    return QStringLiteral("seq, event_id, occurred_at, recorded_at, actor, actor_role, action,"
                          " entity_kind, entity_id, order_id, callback_id, before_json,"
                          " after_json, reason, prev_hash, hash");
}

AuditLogRow readRow(const QSqlQuery &q)
{
    AuditLogRow r;
    r.seq = q.value(0).toLongLong();
    r.eventId = q.value(1).toString();
    r.occurredAt = q.value(2).toLongLong();
    r.recordedAt = q.value(3).toLongLong();
    r.actor = q.value(4).toString();
    r.actorRole = q.value(5).toString();
    r.action = q.value(6).toString();
    r.entityKind = q.value(7).toString();
    r.entityId = q.value(8).toString();
    r.orderId = optionalText(q.value(9));
    r.callbackId = optionalText(q.value(10));
    r.beforeJson = optionalText(q.value(11));
    r.afterJson = optionalText(q.value(12));
    r.reason = optionalText(q.value(13));
    r.prevHash = q.value(14).toString();
    r.hash = q.value(15).toString();
    return r;
}

QString insertSql()
{
    return QStringLiteral("INSERT INTO audit_log (") + columns() +
           QStringLiteral(") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
}

QVariantList insertBinds(const AuditLogRow &r)
{
    return {r.seq,
            bindText(r.eventId),
            r.occurredAt,
            r.recordedAt,
            bindText(r.actor),
            bindText(r.actorRole),
            bindText(r.action),
            bindText(r.entityKind),
            bindText(r.entityId),
            bindOptional(r.orderId),
            bindOptional(r.callbackId),
            bindOptional(r.beforeJson),
            bindOptional(r.afterJson),
            bindOptional(r.reason),
            r.prevHash,
            r.hash};
}

// ---- RowHasher ----

struct RowHasher::Digest {
    EVP_MD *md = EVP_MD_fetch(nullptr, "SHA2-256", nullptr); // fetched once, not per row
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    ~Digest()
    {
        EVP_MD_CTX_free(ctx);
        EVP_MD_free(md);
    }
};

RowHasher::RowHasher()
    : m_digest(std::make_unique<Digest>())
{
    m_buffer.reserve(1024);
}

RowHasher::~RowHasher() = default;

bool RowHasher::ready() const
{
    return m_digest->md && m_digest->ctx;
}

namespace {

// The SHA-256 of `bytes` through the hasher's context: false when OpenSSL fails.
bool sha256(EVP_MD_CTX *ctx, const EVP_MD *md, const QByteArray &bytes, unsigned char *out)
{
    unsigned int n = 0;
    return EVP_DigestInit_ex2(ctx, md, nullptr) == 1 &&
           EVP_DigestUpdate(ctx, bytes.constData(), size_t(bytes.size())) == 1 &&
           EVP_DigestFinal_ex(ctx, out, &n) == 1 && n == 32;
}

constexpr char kHex[] = "0123456789abcdef";

bool isHexOf(const unsigned char *digest, const char *hex)
{
    for (int i = 0; i < 32; ++i)
        if (hex[2 * i] != kHex[digest[i] >> 4] || hex[2 * i + 1] != kHex[digest[i] & 15])
            return false;
    return true;
}

} // namespace

bool RowHasher::matches(const AuditLogRowBytes &row)
{
    if (row.hash.size() != 64 || !m_digest->md || !m_digest->ctx)
        return false;
    encodeInto(m_buffer, row);
    unsigned char md[EVP_MAX_MD_SIZE];
    return sha256(m_digest->ctx, m_digest->md, m_buffer, md) && isHexOf(md, row.hash.data());
}

// As the bytes the chain was hashed from: the row's text through QString::toUtf8, then the
// same encoder (a lone surrogate becomes '?', as it did when the row was shipped).
bool RowHasher::matches(const AuditLogRow &r)
{
    const AuditLogRowUtf8 utf8(r);
    return matches(utf8.bytes());
}

} // namespace OncePay::AuditChain
