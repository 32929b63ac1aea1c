<?xml version='1.0' encoding='utf-8'?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>OncePay::AuditRowModel</name>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>执行者</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Entity</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>变更前</translation>
    </message>
    <message>
        <source>After</source>
        <translation>变更后</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Shipped</source>
        <translation>已归档</translation>
    </message>
    <message>
        <source>not yet</source>
        <translation>尚未</translation>
    </message>
</context>
<context>
    <name>OncePay::ConnectionStatusModel</name>
    <message>
        <source>Orders</source>
        <translation>订单库</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>消息库</translation>
    </message>
    <message>
        <source>Audit</source>
        <translation>审计库</translation>
    </message>
    <message>
        <source>Unreachable</source>
        <translation>无法连接</translation>
    </message>
    <message>
        <source>Reachable</source>
        <translation>可连接</translation>
    </message>
    <message>
        <source>Reachable (%1)</source>
        <translation>可连接（%1）</translation>
    </message>
    <message>
        <source>%1 (same database as orders)</source>
        <translation>%1（与订单库相同）</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>数据库</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <source>Location</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Server version</source>
        <translation>服务器版本</translation>
    </message>
    <message>
        <source>Schema</source>
        <translation>结构版本</translation>
    </message>
</context>
<context>
    <name>OncePay::ConnectionsPage</name>
    <message>
        <source>&lt;h2&gt;Databases&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;数据库&lt;/h2&gt;</translation>
    </message>
    <message>
        <source>Check again</source>
        <translation>重新检查</translation>
    </message>
    <message>
        <source>Checking the orders, messages and audit databases…</source>
        <translation>正在检查订单、消息和审计数据库……</translation>
    </message>
    <message>
        <source>All three databases are reachable.</source>
        <translation>三个数据库均可连接。</translation>
    </message>
    <message>
        <source>At least one database is unreachable; see the Status column.</source>
        <translation>至少有一个数据库无法连接，请查看“状态”列。</translation>
    </message>
</context>
<context>
    <name>OncePay::DashboardPage</name>
    <message>
        <source>&lt;h2&gt;Dashboard&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;仪表盘&lt;/h2&gt;</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>最近 1 小时</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>最近 24 小时</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>最近 30 天</translation>
    </message>
    <message>
        <source>Time range of the callback chart and the message statuses</source>
        <translation>回调图表和消息状态所用的时间范围</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>Range:</source>
        <translation>范围：</translation>
    </message>
    <message>
        <source>A channel's exact redelivery is answered “already received” at the door and not stored, so it is not counted here (the gateway's metrics count it). “Absorbed” counts stored callbacks the worker skipped because the payment was already applied or the attempt was stale; “refused” counts requests rejected at the door (bad signature, malformed, too large).</source>
        <translation>渠道对同一回调的原样重发在入口处即答复“已收到”且不入库，因此此处不计（由网关指标统计）。“已吸收”统计已入库、但因支付已生效或支付尝试已过期而被处理器跳过的回调；“入口拒绝”统计在入口处被拒绝的请求（签名错误、格式错误、过大）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Open discrepancies by channel&lt;/b&gt;</source>
        <translation>&lt;b&gt;各渠道未结差异&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>加载中……</translation>
    </message>
    <message>
        <source>Updated %1</source>
        <translation>更新于 %1</translation>
    </message>
    <message>
        <source>Messages by status (range)</source>
        <translation>消息状态（所选范围）</translation>
    </message>
    <message>
        <source>Orders by state (now)</source>
        <translation>订单状态（当前）</translation>
    </message>
    <message>
        <source>Stuck records by kind (now)</source>
        <translation>滞留记录类型（当前）</translation>
    </message>
    <message>
        <source>Callbacks over time</source>
        <translation>回调趋势</translation>
    </message>
    <message>
        <source>received</source>
        <translation>已接收</translation>
    </message>
    <message>
        <source>absorbed (already applied or stale)</source>
        <translation>已吸收（已生效或已过期）</translation>
    </message>
    <message>
        <source>refused at the door</source>
        <translation>入口拒绝</translation>
    </message>
    <message>
        <source>%1 — none</source>
        <translation>%1 —— 无</translation>
    </message>
    <message>
        <source>30 days up to the latest callback</source>
        <translation>截至最新回调的 30 天</translation>
    </message>
    <message>
        <source>&lt;b&gt;Open discrepancies by channel&lt;/b&gt; — none open</source>
        <translation>&lt;b&gt;各渠道未结差异&lt;/b&gt; —— 暂无</translation>
    </message>
</context>
<context>
    <name>OncePay::DiscrepancyTotalModel</name>
    <message>
        <source>Channel</source>
        <translation>渠道</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>未结</translation>
    </message>
    <message>
        <source>Amount at issue</source>
        <translation>涉及金额</translation>
    </message>
</context>
<context>
    <name>OncePay::ErrorText</name>
    <message>
        <source>The database cannot be reached. It will be tried again on the next refresh.</source>
        <translation>无法连接数据库。下次刷新时将重试。</translation>
    </message>
    <message>
        <source>The database was created by a newer OncePay. Upgrade this console before using it.</source>
        <translation>该数据库由更新版本的 OncePay 创建。请先升级本控制台。</translation>
    </message>
    <message>
        <source>Your role may not see this.</source>
        <translation>您的角色无权查看此内容。</translation>
    </message>
    <message>
        <source>Nothing was found.</source>
        <translation>未找到任何内容。</translation>
    </message>
    <message>
        <source>The database has an older schema; run `oncepay db migrate`.</source>
        <translation>数据库结构版本较旧，请运行 `oncepay db migrate`。</translation>
    </message>
    <message>
        <source>Type an order, customer, transaction, callback or request id.</source>
        <translation>请输入订单号、客户编号、交易号、回调编号或请求编号。</translation>
    </message>
    <message>
        <source>That is longer than any identifier.</source>
        <translation>输入内容超过了任何编号的长度。</translation>
    </message>
    <message>
        <source>The request was refused: %1</source>
        <translation>请求被拒绝：%1</translation>
    </message>
    <message>
        <source>Something went wrong: %1</source>
        <translation>出现错误：%1</translation>
    </message>
</context>
<context>
    <name>OncePay::IdempotencyModel</name>
    <message>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>Request</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Expected version</source>
        <translation>预期版本</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
</context>
<context>
    <name>OncePay::Labels</name>
    <message>
        <source>pending payment</source>
        <translation>待支付</translation>
    </message>
    <message>
        <source>paying</source>
        <translation>支付中</translation>
    </message>
    <message>
        <source>paid, unconfirmed</source>
        <translation>已付款待确认</translation>
    </message>
    <message>
        <source>paid</source>
        <translation>已支付</translation>
    </message>
    <message>
        <source>payment failed</source>
        <translation>支付失败</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>refunded</source>
        <translation>已退款</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>待处理</translation>
    </message>
    <message>
        <source>processing</source>
        <translation>处理中</translation>
    </message>
    <message>
        <source>completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>failed, will retry</source>
        <translation>失败，将重试</translation>
    </message>
    <message>
        <source>dead letter</source>
        <translation>死信</translation>
    </message>
    <message>
        <source>Message waiting</source>
        <translation>消息等待处理</translation>
    </message>
    <message>
        <source>Message processing too long</source>
        <translation>消息处理超时</translation>
    </message>
    <message>
        <source>Expired lease</source>
        <translation>租约已过期</translation>
    </message>
    <message>
        <source>Dead letter</source>
        <translation>死信</translation>
    </message>
    <message>
        <source>Unfinished request</source>
        <translation>未完成的请求</translation>
    </message>
    <message>
        <source>Refund due</source>
        <translation>待退款</translation>
    </message>
    <message>
        <source>Order in flight</source>
        <translation>订单停滞在途</translation>
    </message>
    <message>
        <source>order id</source>
        <translation>订单号</translation>
    </message>
    <message>
        <source>customer reference</source>
        <translation>客户编号</translation>
    </message>
    <message>
        <source>channel transaction</source>
        <translation>渠道交易号</translation>
    </message>
    <message>
        <source>callback id</source>
        <translation>回调编号</translation>
    </message>
    <message>
        <source>request id</source>
        <translation>请求编号</translation>
    </message>
    <message>
        <source>agent</source>
        <translation>客服</translation>
    </message>
    <message>
        <source>finance</source>
        <translation>财务</translation>
    </message>
    <message>
        <source>auditor</source>
        <translation>审计</translation>
    </message>
    <message>
        <source>administrator</source>
        <translation>管理员</translation>
    </message>
    <message>
        <source>request</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>callback</source>
        <translation>回调</translation>
    </message>
    <message>
        <source>fix</source>
        <translation>修复</translation>
    </message>
    <message>
        <source>timer</source>
        <translation>定时器</translation>
    </message>
    <message>
        <source>system</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>payment credit</source>
        <translation>支付入账</translation>
    </message>
    <message>
        <source>refund debit</source>
        <translation>退款出账</translation>
    </message>
    <message>
        <source>fee adjustment</source>
        <translation>手续费调整</translation>
    </message>
    <message>
        <source>write-off</source>
        <translation>核销</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 天 %2 小时</translation>
    </message>
</context>
<context>
    <name>OncePay::LedgerModel</name>
    <message>
        <source>Booked</source>
        <translation>记账时间</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <source>Transaction</source>
        <translation>交易号</translation>
    </message>
    <message>
        <source>Callback</source>
        <translation>回调</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
</context>
<context>
    <name>OncePay::MainWindow</name>
    <message>
        <source>OncePay Console — %1</source>
        <translation>OncePay 控制台 —— %1</translation>
    </message>
    <message>
        <source>Dashboard</source>
        <translation>仪表盘</translation>
    </message>
    <message>
        <source>Order investigation</source>
        <translation>订单调查</translation>
    </message>
    <message>
        <source>Stuck records</source>
        <translation>滞留记录</translation>
    </message>
    <message>
        <source>Databases</source>
        <translation>数据库</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Orders</source>
        <translation>订单库</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>消息库</translation>
    </message>
    <message>
        <source>Audit</source>
        <translation>审计库</translation>
    </message>
    <message>
        <source>%1: checking…</source>
        <translation>%1：检查中……</translation>
    </message>
    <message>
        <source>%1 (Ctrl+%2)</source>
        <translation>%1（Ctrl+%2）</translation>
    </message>
    <message>
        <source>&amp;Console</source>
        <translation>控制台(&amp;C)</translation>
    </message>
    <message>
        <source>Sign &amp;out</source>
        <translation>退出登录(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Find an order…</source>
        <translation>查找订单(&amp;F)……</translation>
    </message>
    <message>
        <source>Signed in: %1 (%2)</source>
        <translation>已登录：%1（%2）</translation>
    </message>
    <message>
        <source>%1: ● %2</source>
        <translation>%1：● %2</translation>
    </message>
    <message>
        <source>%1: ✕ unreachable</source>
        <translation>%1：✕ 无法连接</translation>
    </message>
</context>
<context>
    <name>OncePay::MessageModel</name>
    <message>
        <source>Received</source>
        <translation>接收时间</translation>
    </message>
    <message>
        <source>Callback</source>
        <translation>回调</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>支付尝试</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Tries</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <source>Reason / last error</source>
        <translation>原因 / 最近错误</translation>
    </message>
</context>
<context>
    <name>OncePay::OrderHitModel</name>
    <message>
        <source>Order</source>
        <translation>订单</translation>
    </message>
    <message>
        <source>Found by</source>
        <translation>匹配方式</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
</context>
<context>
    <name>OncePay::OrderPage</name>
    <message>
        <source>&lt;h2&gt;Order investigation&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;订单调查&lt;/h2&gt;</translation>
    </message>
    <message>
        <source>Order, customer, transaction, callback or request id</source>
        <translation>订单号、客户编号、交易号、回调编号或请求编号</translation>
    </message>
    <message>
        <source>&amp;Find</source>
        <translation>查找(&amp;F)</translation>
    </message>
    <message>
        <source>Search for an order by any of its identifiers.</source>
        <translation>可用订单的任一编号进行搜索。</translation>
    </message>
    <message>
        <source>&amp;Timeline</source>
        <translation>时间线(&amp;T)</translation>
    </message>
    <message>
        <source>Select a callback to see its body and headers as received.</source>
        <translation>选择一条回调，查看收到时的原始报文和请求头。</translation>
    </message>
    <message>
        <source>&amp;Callbacks</source>
        <translation>回调(&amp;C)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Payments&lt;/b&gt;</source>
        <translation>&lt;b&gt;支付记录&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Ledger&lt;/b&gt;</source>
        <translation>&lt;b&gt;账本&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&amp;Payments and ledger</source>
        <translation>支付与账本(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Requests</source>
        <translation>请求(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Audit rows</source>
        <translation>审计记录(&amp;A)</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>搜索中……</translation>
    </message>
    <message>
        <source>No order matches “%1”.</source>
        <translation>没有与“%1”匹配的订单。</translation>
    </message>
    <message numerus="yes">
        <source>%n orders match; choose one.</source>
        <translation>
            <numerusform>有 %n 个订单匹配，请选择一个。</numerusform></translation>
    </message>
    <message>
        <source>Loading order %1…</source>
        <translation>正在加载订单 %1……</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Order %1 — %2, version %3&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;订单 %1 —— %2，版本 %3&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>Amount: %1</source>
        <translation>金额：%1</translation>
    </message>
    <message>
        <source>Customer: %1</source>
        <translation>客户：%1</translation>
    </message>
    <message>
        <source>Current attempt: %1 on %2</source>
        <translation>当前支付尝试：%1（%2）</translation>
    </message>
    <message>
        <source>Transaction: %1</source>
        <translation>交易号：%1</translation>
    </message>
    <message>
        <source>Reason: %1</source>
        <translation>原因：%1</translation>
    </message>
    <message>
        <source>Updated: %1</source>
        <translation>更新时间：%1</translation>
    </message>
    <message>
        <source>Path: %1</source>
        <translation>路径：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n refused attempt(s)</source>
        <translation>
            <numerusform>%n 次被拒绝的尝试</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n event(s) in the timeline.</source>
        <translation>
            <numerusform>时间线中共有 %n 个事件。</numerusform></translation>
    </message>
    <message>
        <source>Callback %1 — signature verified at the door (unsigned or wrongly signed requests are never stored)

Headers:
%2
Body:
%3</source>
        <translation>回调 %1 —— 签名已在入口处验证（未签名或签名错误的请求不会入库）

请求头：
%2
报文：
%3</translation>
    </message>
</context>
<context>
    <name>OncePay::PaymentModel</name>
    <message>
        <source>Captured</source>
        <translation>扣款时间</translation>
    </message>
    <message>
        <source>Channel</source>
        <translation>渠道</translation>
    </message>
    <message>
        <source>Transaction</source>
        <translation>交易号</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Settlement</source>
        <translation>结算</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>支付尝试</translation>
    </message>
    <message>
        <source>Callback</source>
        <translation>回调</translation>
    </message>
</context>
<context>
    <name>OncePay::SignInDialog</name>
    <message>
        <source>Sign in to OncePay</source>
        <translation>登录 OncePay</translation>
    </message>
    <message>
        <source>&lt;h2&gt;OncePay Console&lt;/h2&gt;&lt;p&gt;Sign in with your staff account.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;OncePay 控制台&lt;/h2&gt;&lt;p&gt;请使用员工账号登录。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Sign in</source>
        <translation>登录</translation>
    </message>
    <message>
        <source>&amp;User name:</source>
        <translation>用户名(&amp;U)：</translation>
    </message>
    <message>
        <source>&amp;Password:</source>
        <translation>密码(&amp;P)：</translation>
    </message>
    <message>
        <source>Type your user name and password.</source>
        <translation>请输入用户名和密码。</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>验证中……</translation>
    </message>
    <message>
        <source>Signed in as %1 (%2).</source>
        <translation>已登录为 %1（%2）。</translation>
    </message>
    <message>
        <source>Wrong user name or password.</source>
        <translation>用户名或密码错误。</translation>
    </message>
    <message numerus="yes">
        <source>%n more failed attempt(s) will lock the account.</source>
        <translation>
            <numerusform>再失败 %n 次，账号将被锁定。</numerusform></translation>
    </message>
    <message>
        <source>This account is locked after repeated failed sign-ins until %1. Wait, or ask an administrator to reset the password.</source>
        <translation>该账号因多次登录失败已被锁定，直至 %1。请等待，或请管理员重置密码。</translation>
    </message>
    <message>
        <source>This account is disabled. Ask an administrator.</source>
        <translation>该账号已停用，请联系管理员。</translation>
    </message>
</context>
<context>
    <name>OncePay::StuckModel</name>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>滞留时长</translation>
    </message>
    <message>
        <source>since %1</source>
        <translation>自 %1 起</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>订单</translation>
    </message>
    <message>
        <source>Channel</source>
        <translation>渠道</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Tries</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>引用</translation>
    </message>
    <message>
        <source>Reason / last error</source>
        <translation>原因 / 最近错误</translation>
    </message>
    <message>
        <source>to refund</source>
        <translation>待退款</translation>
    </message>
</context>
<context>
    <name>OncePay::StuckPage</name>
    <message>
        <source>&lt;h2&gt;Stuck records&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;滞留记录&lt;/h2&gt;</translation>
    </message>
    <message>
        <source>All kinds</source>
        <translation>全部类型</translation>
    </message>
    <message>
        <source>Any age past the threshold</source>
        <translation>超过阈值的全部</translation>
    </message>
    <message>
        <source>Older than 1 hour</source>
        <translation>超过 1 小时</translation>
    </message>
    <message>
        <source>Older than 1 day</source>
        <translation>超过 1 天</translation>
    </message>
    <message>
        <source>Older than 7 days</source>
        <translation>超过 7 天</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>Enter or double-click opens the order</source>
        <translation>按回车或双击打开订单</translation>
    </message>
    <message>
        <source>&amp;Kind:</source>
        <translation>类型(&amp;K)：</translation>
    </message>
    <message>
        <source>A&amp;ge:</source>
        <translation>时长(&amp;G)：</translation>
    </message>
    <message numerus="yes">
        <source>%n record(s) need attention.</source>
        <translation>
            <numerusform>%n 条记录需要处理。</numerusform></translation>
    </message>
    <message>
        <source>Showing the oldest %1 of each kind.</source>
        <translation>每种类型仅显示最早的 %1 条。</translation>
    </message>
    <message>
        <source>Thresholds from the operations settings: messages and orders after %1, requests after %2.</source>
        <translation>阈值来自运维设置：消息和订单超过 %1，请求超过 %2。</translation>
    </message>
</context>
<context>
    <name>OncePay::TimelineModel</name>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>Refused: %1 → %2</source>
        <translation>已拒绝：%1 → %2</translation>
    </message>
    <message>
        <source>Callback received</source>
        <translation>收到回调</translation>
    </message>
    <message>
        <source>Callback received, %1</source>
        <translation>收到回调，%1</translation>
    </message>
    <message>
        <source>Worker: %1</source>
        <translation>处理器：%1</translation>
    </message>
    <message>
        <source>Ledger: %1 %2</source>
        <translation>账本：%1 %2</translation>
    </message>
    <message>
        <source>Refund due: %1</source>
        <translation>待退款：%1</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>v%1</source>
        <translation>v%1</translation>
    </message>
    <message>
        <source>expected v%1</source>
        <translation>预期 v%1</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Cause</source>
        <translation>起因</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>执行者</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>OncePay Console</source>
        <translation>OncePay 控制台</translation>
    </message>
    <message>
        <source>The configuration cannot be used:
%1</source>
        <translation>配置无法使用：
%1</translation>
    </message>
</context>
</TS>