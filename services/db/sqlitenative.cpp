#include "sqlitenative.h"

#include <QSqlDriver>
#include <QStringEncoder>

#include <sqlite3.h>

namespace OncePay::SqliteNative {

sqlite3 *handle(const QSqlDatabase &db)
{
    if (!db.isOpen() || db.driverName() != u"QSQLITE")
        return nullptr;
    const QVariant v = db.driver()->handle();
    if (!v.isValid() || qstrcmp(v.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3 *const *>(v.constData());
}

Statement::~Statement()
{
    if (m_stmt)
        sqlite3_finalize(m_stmt);
}

Result<void> Statement::prepare(sqlite3 *db, const QByteArray &sql)
{
    if (m_stmt)
        sqlite3_finalize(m_stmt);
    m_stmt = nullptr;
    m_db = db;
    if (sqlite3_prepare_v2(db, sql.constData(), int(sql.size()), &m_stmt, nullptr) != SQLITE_OK)
        return makeError(ErrorCode::Internal, QStringLiteral("sqlite prepare: %1 (%2)")
                                                  .arg(QString::fromUtf8(sqlite3_errmsg(db)),
                                                       QString::fromUtf8(sql.left(80))));
    return {};
}

void Statement::bind(int index, qint64 value)
{
    sqlite3_bind_int64(m_stmt, index, value);
}

void Statement::bind(int index, const QByteArray &utf8)
{
    sqlite3_bind_text(m_stmt, index, utf8.constData(), int(utf8.size()), SQLITE_TRANSIENT);
}

void Statement::bindText(int index, QStringView text)
{
    if (index < 1)
        return;
    if (text.isEmpty()) { // empty text, not NULL: SQLite reads a null pointer as NULL
        sqlite3_bind_text(m_stmt, index, "", 0, SQLITE_STATIC);
        return;
    }
    if (m_text.size() <= size_t(index))
        m_text.resize(size_t(index) + 1);
    QByteArray &buffer = m_text[size_t(index)];
    const qsizetype need = text.size() * 3; // the most UTF-8 one UTF-16 unit can need
    if (buffer.size() < need)
        buffer.resize(need);
    QStringEncoder encoder(QStringConverter::Utf8, QStringConverter::Flag::Stateless);
    char *end = encoder.appendToBuffer(buffer.data(), text);
    sqlite3_bind_text(m_stmt, index, buffer.constData(), int(end - buffer.constData()),
                      SQLITE_STATIC);
}

void Statement::bindNull(int index)
{
    sqlite3_bind_null(m_stmt, index);
}

void Statement::bindAll(const QVariantList &values)
{
    for (int i = 0; i < values.size(); ++i) {
        const QVariant &v = values.at(i);
        if (v.isNull())
            bindNull(i + 1);
        else if (v.typeId() == QMetaType::LongLong || v.typeId() == QMetaType::Int ||
                 v.typeId() == QMetaType::UInt || v.typeId() == QMetaType::Bool)
            bind(i + 1, v.toLongLong());
        else
            bind(i + 1, v.toString().toUtf8());
    }
}

Result<bool> Statement::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    // Qt's driver turns on extended result codes (SQLITE_CONSTRAINT_UNIQUE, SQLITE_BUSY_SNAPSHOT):
    // classify by the primary code.
    const int primary = rc & 0xff;
    const ErrorCode code = (primary == SQLITE_BUSY || primary == SQLITE_LOCKED)
                               ? ErrorCode::Unavailable
                           : (primary == SQLITE_CONSTRAINT) ? ErrorCode::Conflict
                                                            : ErrorCode::Internal;
    return makeError(
        code, QStringLiteral("sqlite step: %1").arg(QString::fromUtf8(sqlite3_errmsg(m_db))));
}

Result<void> Statement::exec()
{
    for (;;) {
        auto r = step();
        if (!r)
            return r.error();
        if (!*r)
            return {};
    }
}

void Statement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

bool Statement::isNull(int column) const
{
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

qint64 Statement::int64(int column) const
{
    return sqlite3_column_int64(m_stmt, column);
}

const char *Statement::text(int column, int *size) const
{
    const auto *p = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, column));
    *size = sqlite3_column_bytes(m_stmt, column);
    return p ? p : "";
}

QString Statement::string(int column) const
{
    int n = 0;
    const char *p = text(column, &n);
    return QString::fromUtf8(p, n);
}

} // namespace OncePay::SqliteNative
