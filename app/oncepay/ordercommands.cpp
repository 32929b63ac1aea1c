// oncepay order create | pay | rollback | cancel | show — the platform's side of an order.

#include "cli.h"
#include "core/money.h"
#include "db/migrator.h"
#include "orders/orderservice.h"

#include <QDateTime>

namespace OncePay::Cli {

namespace {

QString when(qint64 ms)
{
    return ms ? QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs)
              : QStringLiteral("-");
}

void printOrder(QTextStream &out, const Order &o)
{
    out << "order    " << o.orderId << "\nstate    " << orderStateName(o.state) << "\nversion  "
        << o.version << "\namount   " << Currency::format(o.amountMinor, o.currency)
        << "\ncustomer " << o.customerRef << '\n';
    if (!o.currentRequestId.isEmpty())
        out << "attempt  " << o.currentRequestId << " on " << o.channel << '\n';
    if (!o.channelTxnId.isEmpty())
        out << "payment  " << o.channelTxnId << '\n';
    if (!o.stateReason.isEmpty())
        out << "reason   " << o.stateReason << '\n';
}

QString opt(const QCommandLineParser &p, const char *name)
{
    return p.value(QLatin1String(name));
}

Result<qint64> versionArg(const QCommandLineParser &p)
{
    bool ok = false;
    const qint64 v = opt(p, "expected-version").toLongLong(&ok);
    if (!ok || v < 1)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("--expected-version must be a version number (>= 1)"));
    return v;
}

Actor actorArg(const QCommandLineParser &p)
{
    const QString who = opt(p, "actor");
    return who.isEmpty() ? Actor::platform() : Actor::platform(who);
}

void addActor(QCommandLineParser &p)
{
    p.addOption({QStringLiteral("actor"), QStringLiteral("Who asks (default: checkout)."),
                 QStringLiteral("NAME")});
}

int create(Context &ctx, const QCommandLineParser &p)
{
    auto c = openMigrated(ctx.config.orders, QStringLiteral("cli"));
    if (!c)
        return fail(ctx, c.error());
    NewOrder n;
    n.orderId = opt(p, "id");
    n.customerRef = opt(p, "customer");
    n.currency = opt(p, "currency").toUpper();
    auto amount = Currency::parseDecimal(opt(p, "amount"), n.currency);
    if (!amount)
        return fail(ctx, amount.error());
    n.amountMinor = *amount;
    auto o = OrderService(*c, Clock::system()).create(n, actorArg(p));
    if (!o)
        return fail(ctx, o.error());
    printOrder(ctx.out, *o);
    return Ok;
}

int pay(Context &ctx, const QCommandLineParser &p)
{
    if (p.positionalArguments().size() != 1)
        return ctx.err << "oncepay order pay: give exactly one ORDER\n", Usage;
    auto version = versionArg(p);
    if (!version)
        return ctx.err << "oncepay order pay: " << version.error().message << '\n', Usage;
    if (opt(p, "channel").isEmpty() || opt(p, "request-id").isEmpty())
        return ctx.err << "oncepay order pay: --channel and --request-id are required\n", Usage;
    auto c = openMigrated(ctx.config.orders, QStringLiteral("cli"));
    if (!c)
        return fail(ctx, c.error());
    auto r = OrderService(*c, Clock::system())
                 .startPayment(p.positionalArguments().first(), opt(p, "channel"), *version,
                               opt(p, "request-id"), actorArg(p));
    if (!r)
        return fail(ctx, r.error());
    if (r->replayed)
        ctx.out << "request " << opt(p, "request-id") << " already succeeded; recorded outcome:\n";
    printOrder(ctx.out, r->order);
    return Ok;
}

int transition(Context &ctx, const QCommandLineParser &p, bool rollback)
{
    const char *name = rollback ? "rollback" : "cancel";
    if (p.positionalArguments().size() != 1)
        return ctx.err << "oncepay order " << name << ": give exactly one ORDER\n", Usage;
    auto version = versionArg(p);
    if (!version)
        return ctx.err << "oncepay order " << name << ": " << version.error().message << '\n',
               Usage;
    if (opt(p, "reason").trimmed().isEmpty())
        return ctx.err << "oncepay order " << name << ": --reason is required\n", Usage;
    auto c = openMigrated(ctx.config.orders, QStringLiteral("cli"));
    if (!c)
        return fail(ctx, c.error());
    OrderService orders(*c, Clock::system());
    const QString id = p.positionalArguments().first();
    auto r = rollback ? orders.rollback(id, *version, CauseKind::Request, opt(p, "request-id"),
                                        actorArg(p), opt(p, "reason"))
                      : orders.cancel(id, *version, CauseKind::Request, opt(p, "request-id"),
                                      actorArg(p), opt(p, "reason"));
    if (!r)
        return fail(ctx, r.error());
    printOrder(ctx.out, *r);
    return Ok;
}

int show(Context &ctx, const QCommandLineParser &p)
{
    if (p.positionalArguments().size() != 1)
        return ctx.err << "oncepay order show: give exactly one ORDER\n", Usage;
    auto c = openMigrated(ctx.config.orders, QStringLiteral("cli"));
    if (!c)
        return fail(ctx, c.error());
    auto h = OrderService(*c, Clock::system()).history(p.positionalArguments().first());
    if (!h)
        return fail(ctx, h.error());
    printOrder(ctx.out, h->order);
    ctx.out << "\nhistory\n";
    for (const OrderTransition &t : h->transitions)
        ctx.out << "  v" << t.newVersion << "  " << when(t.createdAt) << "  " << t.fromState
                << " -> " << t.toState << "  [" << t.causeKind
                << (t.causeId.isEmpty() ? QString() : u' ' + t.causeId) << "] by " << t.actor
                << (t.reason.isEmpty() ? QString() : QStringLiteral(": ") + t.reason) << '\n';
    if (!h->rejections.isEmpty()) {
        ctx.out << "\nrefused\n";
        for (const TransitionRejection &r : h->rejections)
            ctx.out << "  " << when(r.createdAt) << "  -> " << r.requestedTo << "  [" << r.causeKind
                    << ' ' << r.causeId << "] at v" << r.actualVersion << ": " << r.reason << '\n';
    }
    return Ok;
}

const bool registered = registerCommands({
    {{QStringLiteral("order"), QStringLiteral("create")},
     QStringLiteral("create an order (pending_payment, version 1)"),
     {},
     [](QCommandLineParser &p) {
         p.addOption({QStringLiteral("id"), QStringLiteral("Order id (default: generated)."),
                      QStringLiteral("ID")});
         p.addOption({QStringLiteral("customer"),
                      QStringLiteral("Customer reference (never a name)."), QStringLiteral("REF")});
         p.addOption({QStringLiteral("amount"), QStringLiteral("Amount as a decimal, e.g. 21.12."),
                      QStringLiteral("AMOUNT")});
         p.addOption({QStringLiteral("currency"), QStringLiteral("ISO-4217 code, e.g. USD."),
                      QStringLiteral("CCY")});
         addActor(p);
     },
     create},
    {{QStringLiteral("order"), QStringLiteral("pay")},
     QStringLiteral("start a payment attempt: pending_payment -> paying"),
     QStringLiteral("ORDER"),
     [](QCommandLineParser &p) {
         p.addOption({QStringLiteral("channel"),
                      QStringLiteral("stripe, paypal, fedapay or kakaopay."),
                      QStringLiteral("CHANNEL")});
         p.addOption({QStringLiteral("expected-version"),
                      QStringLiteral("The version the caller saw."), QStringLiteral("V")});
         p.addOption({QStringLiteral("request-id"),
                      QStringLiteral("Idempotency key of this attempt."), QStringLiteral("ID")});
         addActor(p);
     },
     pay},
    {{QStringLiteral("order"), QStringLiteral("rollback")},
     QStringLiteral("roll back to pending_payment (from payment_failed or paid_unconfirmed)"),
     QStringLiteral("ORDER"),
     [](QCommandLineParser &p) {
         p.addOption({QStringLiteral("expected-version"),
                      QStringLiteral("The version the caller saw."), QStringLiteral("V")});
         p.addOption({QStringLiteral("reason"),
                      QStringLiteral("Why (stock-out, mismatch, new attempt)."),
                      QStringLiteral("TEXT")});
         p.addOption({QStringLiteral("request-id"), QStringLiteral("Caller's reference."),
                      QStringLiteral("ID")});
         addActor(p);
     },
     [](Context &ctx, const QCommandLineParser &p) { return transition(ctx, p, true); }},
    {{QStringLiteral("order"), QStringLiteral("cancel")},
     QStringLiteral("cancel an order that is pending_payment"),
     QStringLiteral("ORDER"),
     [](QCommandLineParser &p) {
         p.addOption({QStringLiteral("expected-version"),
                      QStringLiteral("The version the caller saw."), QStringLiteral("V")});
         p.addOption({QStringLiteral("reason"), QStringLiteral("Why."), QStringLiteral("TEXT")});
         p.addOption({QStringLiteral("request-id"), QStringLiteral("Caller's reference."),
                      QStringLiteral("ID")});
         addActor(p);
     },
     [](Context &ctx, const QCommandLineParser &p) { return transition(ctx, p, false); }},
    {{QStringLiteral("order"), QStringLiteral("show")},
     QStringLiteral("an order's state, version and history"),
     QStringLiteral("ORDER"),
     {},
     show},
});

} // namespace

} // namespace OncePay::Cli
