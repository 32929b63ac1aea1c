#include "searchlookahead.h"

#include "common/backgroundquery.h"

#include <utility>

namespace OncePay {

SearchLookAhead::SearchLookAhead(const ConnectionProfile &orders, const Actor &actor,
                                 QObject *parent)
    : QObject(parent)
    , m_orders(orders)
    , m_actor(actor)
{}

void SearchLookAhead::edited(const QString &text)
{
    const QString term = text.trimmed();
    if (m_inFlight) { // one at a time: the latest text is looked up when this one answers
        m_next = term;
        return;
    }
    m_answer.reset();
    m_next.reset();
    m_term.clear();
    m_askedAt.invalidate();
    if (term.isEmpty() || term.size() > OrderSearch::kMaxTermLength)
        return; // the search says what is wrong with it
    start(term);
}

void SearchLookAhead::start(const QString &term)
{
    m_term = term;
    m_inFlight = true;
    m_askedAt.start();
    const Actor actor = m_actor;
    runBackgroundQuery<QList<OrderHit>>(
        this, m_orders, QStringLiteral("look-ahead"),
        [term, actor](const Connection &c) { return OrderSearch(c).search(term, actor); },
        [this, term](const Answer &r) {
            m_inFlight = false;
            if (auto waiting = std::exchange(m_waiting, nullptr))
                waiting(mayAnswer(r) ? std::optional<Answer>(r) : std::nullopt);
            else if (mayAnswer(r))
                m_answer = r;
            Q_EMIT lookedUp(term);
            if (const std::optional<QString> next = std::exchange(m_next, std::nullopt))
                edited(*next);
        });
}

bool SearchLookAhead::mayAnswer(const Answer &answer)
{
    return answer && answer->size() == 1 && matchNamesOneOrderForGood(answer->first().matchedBy);
}

SearchLookAhead::Take
SearchLookAhead::take(const QString &term, std::optional<Answer> *answer,
                      std::function<void(const std::optional<Answer> &)> whenAnswered)
{
    if (term.isEmpty() || term != m_term || m_next || !fresh())
        return Take::Read;
    if (m_inFlight) {
        m_waiting = std::move(whenAnswered);
        return Take::Wait;
    }
    if (!m_answer)
        return Take::Read;
    *answer = std::exchange(m_answer, std::nullopt);
    return Take::Answer;
}

} // namespace OncePay
