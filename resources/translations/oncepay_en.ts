<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>OncePay::ApprovalsPage</name>
    <message numerus="yes">
        <location filename="../../views/approvals/approvalspage.cpp" line="241"/>
        <source>%n proposal(s) shown.</source>
        <translation>
            <numerusform>%n proposal shown.</numerusform>
            <numerusform>%n proposals shown.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/approvals/approvalspage.cpp" line="243"/>
        <source>%n waiting for a decision.</source>
        <translation>
            <numerusform>%n waiting for a decision.</numerusform>
            <numerusform>%n waiting for a decision.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/approvals/approvalspage.cpp" line="246"/>
        <source>%n of them are yours: another reviewer decides those.</source>
        <translation>
            <numerusform>%n of them is yours: another reviewer decides it.</numerusform>
            <numerusform>%n of them are yours: another reviewer decides those.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::AuditTrailPage</name>
    <message numerus="yes">
        <location filename="../../views/audit/audittrailpage.cpp" line="277"/>
        <source>%n row(s) in the audit database match: %1.</source>
        <translation>
            <numerusform>%n row in the audit database matches: %1.</numerusform>
            <numerusform>%n rows in the audit database match: %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/audit/audittrailpage.cpp" line="320"/>
        <source>%n audited event(s) are not yet in the audit database (oldest %1); they are shipped by the workers or &lt;tt&gt;oncepay audit ship&lt;/tt&gt;.</source>
        <translation>
            <numerusform>%n audited event is not yet in the audit database (from %1); it is shipped by the workers or &lt;tt&gt;oncepay audit ship&lt;/tt&gt;.</numerusform>
            <numerusform>%n audited events are not yet in the audit database (oldest %1); they are shipped by the workers or &lt;tt&gt;oncepay audit ship&lt;/tt&gt;.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="239"/>
        <source>%n audited event(s) are not in the chain yet: they still wait in the outbox (oldest %1).</source>
        <translation>
            <numerusform>%n audited event is not in the chain yet: it still waits in the outbox (from %1).</numerusform>
            <numerusform>%n audited events are not in the chain yet: they still wait in the outbox (oldest %1).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="374"/>
        <source>&lt;b&gt;The export verifies&lt;/b&gt;: %1 holds the %n row(s) its manifest describes; chain head seq %2 is in the audit log unchanged</source>
        <translation>
            <numerusform>&lt;b&gt;The export verifies&lt;/b&gt;: %1 holds the %n row its manifest describes; chain head seq %2 is in the audit log unchanged</numerusform>
            <numerusform>&lt;b&gt;The export verifies&lt;/b&gt;: %1 holds the %n rows its manifest describes; chain head seq %2 is in the audit log unchanged</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::OrderPage</name>
    <message numerus="yes">
        <location filename="../../views/orders/orderpage.cpp" line="357"/>
        <source>%n open reconciliation exception(s) (%1)</source>
        <translation>
            <numerusform>%n open reconciliation exception (%1)</numerusform>
            <numerusform>%n open reconciliation exceptions (%1)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/orders/orderpage.cpp" line="392"/>
        <source>%n refused attempt(s)</source>
        <translation>
            <numerusform>%n refused attempt</numerusform>
            <numerusform>%n refused attempts</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/orders/orderpage.cpp" line="410"/>
        <source>%n event(s) in the timeline.</source>
        <translation>
            <numerusform>%n event in the timeline.</numerusform>
            <numerusform>%n events in the timeline.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/orders/orderpage.cpp" line="476"/>
        <source>Dossier saved to %1 (%n page(s), SHA-256 %2).</source>
        <translation>
            <numerusform>Dossier saved to %1 (%n page, SHA-256 %2).</numerusform>
            <numerusform>Dossier saved to %1 (%n pages, SHA-256 %2).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/orders/orderpage_search.cpp" line="119"/>
        <source>%n order(s) match “%1”; choose one. It also matches callbacks for orders that do not exist:</source>
        <translation>
            <numerusform>%n order matches “%1”: open it from the list. The search also matches callbacks for orders that do not exist:</numerusform>
            <numerusform>%n orders match “%1”; choose one. It also matches callbacks for orders that do not exist:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/orders/orderpage_search.cpp" line="126"/>
        <source>%n orders match; choose one.</source>
        <translation>
            <numerusform>%n order matches; choose it.</numerusform>
            <numerusform>%n orders match; choose one.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/orders/orderpage_search.cpp" line="142"/>
        <source>… and %n more callback(s) for unknown orders.</source>
        <translation>
            <numerusform>… and %n more callback for an unknown order.</numerusform>
            <numerusform>… and %n more callbacks for unknown orders.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/orders/orderpage_search.cpp" line="153"/>
        <source>%1 after %n attempt(s)</source>
        <translation>
            <numerusform>%1 after %n attempt</numerusform>
            <numerusform>%1 after %n attempts</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::ProposeFixDialog</name>
    <message numerus="yes">
        <location filename="../../views/fixes/proposefixdialog.cpp" line="115"/>
        <source>… and %n more</source>
        <translation>
            <numerusform>… and %n more</numerusform>
            <numerusform>… and %n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::ReconciliationPage</name>
    <message numerus="yes">
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="295"/>
        <source>%n open exception(s)</source>
        <translation>
            <numerusform>%n open exception</numerusform>
            <numerusform>%n open exceptions</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="303"/>
        <source>%n corrected automatically under the minimal-intervention rule.</source>
        <translation>
            <numerusform>%n corrected automatically under the minimal-intervention rule.</numerusform>
            <numerusform>%n corrected automatically under the minimal-intervention rule.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="309"/>
        <source>%n refund(s) owed in all (Stuck records): one is a &quot;Refund due&quot; exception once a run has seen the channel settle the money captured.</source>
        <translation>
            <numerusform>%n refund owed in all (Stuck records): it is a &quot;Refund due&quot; exception once a run has seen the channel settle the money captured.</numerusform>
            <numerusform>%n refunds owed in all (Stuck records): one is a &quot;Refund due&quot; exception once a run has seen the channel settle the money captured.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::SignInDialog</name>
    <message numerus="yes">
        <location filename="../../views/auth/signindialog.cpp" line="146"/>
        <source>After %n failed sign-in(s) in a row an account is locked for %1; an administrator can lift the lock by resetting the password.</source>
        <translation>
            <numerusform>After %n failed sign-in an account is locked for %1; an administrator can lift the lock by resetting the password.</numerusform>
            <numerusform>After %n failed sign-ins in a row an account is locked for %1; an administrator can lift the lock by resetting the password.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::StuckPage</name>
    <message numerus="yes">
        <location filename="../../views/stuck/stuckpage.cpp" line="290"/>
        <source>%n record(s) need attention.</source>
        <translation>
            <numerusform>%n record needs attention.</numerusform>
            <numerusform>%n records need attention.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message numerus="yes">
        <location filename="../../views/fixes/fixactions.cpp" line="115"/>
        <source>%n proposed; the rest were not sent: %1</source>
        <translation>
            <numerusform>%n proposed; the rest were not sent: %1</numerusform>
            <numerusform>%n proposed; the rest were not sent: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/fixes/fixactions.cpp" line="119"/>
        <source>%n proposed; you stopped before the rest were sent.</source>
        <translation>
            <numerusform>%n proposed; you stopped before the rest were sent.</numerusform>
            <numerusform>%n proposed; you stopped before the rest were sent.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/fixes/fixactions.cpp" line="121"/>
        <source>%n fix(es) proposed and waiting for approval.</source>
        <translation>
            <numerusform>%n fix proposed and waiting for approval.</numerusform>
            <numerusform>%n fixes proposed and waiting for approval.</numerusform>
        </translation>
    </message>
</context>
</TS>
