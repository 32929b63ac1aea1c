#include "paypalsigner.h"

#include "channels/signature.h"

#include <QDateTime>
#include <QFile>
#include <QSaveFile>
#include <QUuid>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

namespace OncePay {

namespace {

QByteArray selfSignedPem(EVP_PKEY *key)
{
    std::unique_ptr<X509, decltype(&X509_free)> cert(X509_new(), &X509_free);
    if (!cert)
        return {};
    X509_set_version(cert.get(), 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), 1);
    if (ASN1_TIME_set_string_X509(X509_getm_notBefore(cert.get()), "20000101000000Z") != 1 ||
        ASN1_TIME_set_string_X509(X509_getm_notAfter(cert.get()), "20991231235959Z") != 1)
        return {};
    X509_set_pubkey(cert.get(), key);
    X509_NAME *name = X509_get_subject_name(cert.get());
    X509_NAME_add_entry_by_txt(name, "C", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char *>("US"), -1, -1, 0);
    X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char *>("PayPal, Inc. (test)"), -1,
                               -1, 0);
    X509_NAME_add_entry_by_txt(
        name, "CN", MBSTRING_ASC,
        reinterpret_cast<const unsigned char *>("messageverificationcerts.paypal.com"), -1, -1, 0);
    X509_set_issuer_name(cert.get(), name);
    if (X509_sign(cert.get(), key, EVP_sha256()) == 0)
        return {};
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), &BIO_free);
    if (!bio || PEM_write_bio_X509(bio.get(), cert.get()) != 1)
        return {};
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return QByteArray(data, int(size));
}

} // namespace

PayPalSigner::PayPalSigner()
{
    EVP_PKEY *key = EVP_RSA_gen(2048);
    if (!key)
        return;
    m_key = std::shared_ptr<evp_pkey_st>(key, &EVP_PKEY_free);
    m_certPem = selfSignedPem(key);
}

PayPalSigner::~PayPalSigner() = default;

Result<void> PayPalSigner::writeCertificate(const QString &path) const
{
    QSaveFile file(path);
    if (!isValid() || !file.open(QIODevice::WriteOnly) ||
        file.write(m_certPem) != m_certPem.size() || !file.commit())
        return makeError(
            ErrorCode::Unavailable,
            QStringLiteral("cannot write the test PayPal certificate to %1").arg(path));
    return {};
}

QByteArray PayPalSigner::signature(const QByteArray &body, const QByteArray &webhookId,
                                   const QByteArray &transmissionId,
                                   const QByteArray &transmissionTime) const
{
    if (!m_key)
        return {};
    const QByteArray message = transmissionId + '|' + transmissionTime + '|' + webhookId + '|' +
                               QByteArray::number(Signature::crc32(body));
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    size_t size = 0;
    if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, m_key.get()) != 1 ||
        EVP_DigestSign(ctx.get(), nullptr, &size,
                       reinterpret_cast<const unsigned char *>(message.constData()),
                       size_t(message.size())) != 1)
        return {};
    QByteArray out(qsizetype(size), Qt::Uninitialized);
    if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char *>(out.data()), &size,
                       reinterpret_cast<const unsigned char *>(message.constData()),
                       size_t(message.size())) != 1)
        return {};
    out.resize(qsizetype(size));
    return Signature::toBase64(out);
}

QByteArray PayPalSigner::transmissionTime(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate).toLatin1();
}

InboundRequest PayPalSigner::sign(const QByteArray &body, const QByteArray &webhookId,
                                  qint64 timestampMs, const QByteArray &transmissionId,
                                  const QByteArray &certUrl) const
{
    const QByteArray id = transmissionId.isEmpty()
                              ? QUuid::createUuid().toByteArray(QUuid::WithoutBraces)
                              : transmissionId;
    const QByteArray time = transmissionTime(timestampMs);
    InboundRequest r;
    r.body = body;
    r.addHeader("Content-Type", "application/json");
    r.addHeader("User-Agent", "PayPal/AUHD-214.0-58089349");
    r.addHeader("PAYPAL-AUTH-ALGO", "SHA256withRSA");
    r.addHeader("PAYPAL-CERT-URL", certUrl);
    r.addHeader("PAYPAL-TRANSMISSION-ID", id);
    r.addHeader("PAYPAL-TRANSMISSION-SIG", signature(body, webhookId, id, time));
    r.addHeader("PAYPAL-TRANSMISSION-TIME", time);
    return r;
}

} // namespace OncePay
