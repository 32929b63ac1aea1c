#pragma once

// The order page's search box looked up as the reader types or pastes into it (OrderPage), so
// that Return finds the answer already here: an agent pastes an id from a ticket and reaches for
// Return while it is read. Reads only (OrderSearch, not audited, as searches never are), on the
// console's pool; one lookup in flight at a time, the latest text after it.
//
// What may stand in for the search's own read is narrow: the answer of a lookup of this very
// text, asked at most kFreshMs before the search, with a single hit by an identifier that names
// its order for good (matchNamesOneOrderForGood: order, transaction, callback or request id).
// A customer's orders, several hits and "nothing matches" may have changed since, so those are
// read again at the search; so is anything older. The order a hit opens is always read afresh.
// Thread contract: GUI thread only.

#include "config/connectionprofile.h"
#include "core/actor.h"
#include "core/result.h"
#include "investigation/ordersearch.h"

#include <QElapsedTimer>
#include <QObject>

#include <functional>
#include <optional>

namespace OncePay {

class SearchLookAhead : public QObject {
    Q_OBJECT
public:
    using Answer = Result<QList<OrderHit>>;
    // How long before a search its lookup may have been asked and still answer it.
    static constexpr int kFreshMs = 2000;

    SearchLookAhead(const ConnectionProfile &orders, const Actor &actor, QObject *parent);

    // The box's text as the reader edited it (QLineEdit::textEdited; text the program sets is
    // not looked up).
    void edited(const QString &text);

    // A search of `term` (trimmed) starts. Answer: `*answer` answers it now. Wait: the lookup
    // of this very text, asked within kFreshMs, is on its way; `whenAnswered` gets its answer
    // if it may answer the search, or nothing (then the search reads for itself) — only the
    // latest waiting search is called. Read: nothing here answers it. Any answer kept is used
    // once.
    enum class Take { Answer, Wait, Read };
    Take take(const QString &term, std::optional<Answer> *answer,
              std::function<void(const std::optional<Answer> &)> whenAnswered);

Q_SIGNALS:
    // A lookup has come back (tests and the benchmark wait for it).
    void lookedUp(const QString &term);

private:
    void start(const QString &term);
    bool fresh() const { return m_askedAt.isValid() && m_askedAt.elapsed() <= kFreshMs; }
    static bool mayAnswer(const Answer &answer);

    ConnectionProfile m_orders;
    Actor m_actor;
    QString m_term; // trimmed; empty when nothing is looked up or kept
    bool m_inFlight = false;
    std::optional<QString> m_next; // edited while in flight: looked up after it
    std::optional<Answer> m_answer;
    QElapsedTimer m_askedAt; // when the lookup of m_term was asked
    std::function<void(const std::optional<Answer> &)> m_waiting;
};

} // namespace OncePay
