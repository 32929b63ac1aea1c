#include "statementformat.h"

#include "fedapaystatementformat.h"
#include "kakaopaystatementformat.h"
#include "paypalstatementformat.h"
#include "stripestatementformat.h"

namespace OncePay {

const StatementFormat *StatementFormat::forChannel(const QString &channel)
{
    static const StripeStatementFormat stripe;
    static const PayPalStatementFormat paypal;
    static const KakaoPayStatementFormat kakaopay;
    static const FedaPayStatementFormat fedapay;
    for (const StatementFormat *f :
         std::initializer_list<const StatementFormat *>{&stripe, &paypal, &kakaopay, &fedapay})
        if (f->channel() == channel)
            return f;
    return nullptr;
}

QStringList StatementFormat::channels()
{
    return {QStringLiteral("stripe"), QStringLiteral("paypal"), QStringLiteral("kakaopay"),
            QStringLiteral("fedapay")};
}

} // namespace OncePay
