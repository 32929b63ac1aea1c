<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>OncePay::AdminPage</name>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="130"/>
        <source>&lt;h2&gt;Administration&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;系统管理&lt;/h2&gt;</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="131"/>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="141"/>
        <source>&amp;Add account…</source>
        <translation>添加账号(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="143"/>
        <source>&amp;Disable…</source>
        <translation>停用(&amp;D)…</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="145"/>
        <source>&amp;Enable…</source>
        <translation>启用(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="147"/>
        <source>Reset &amp;password…</source>
        <translation>重置密码(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="153"/>
        <source>Change &amp;role…</source>
        <translation>更改角色(&amp;R)…</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="179"/>
        <source>&amp;Change…</source>
        <translation>修改(&amp;C)…</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="186"/>
        <source>Every change needs a reason and is audited.</source>
        <translation>每次修改都需填写原因，并记入审计。</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="192"/>
        <source>Staff accounts</source>
        <translation>员工账号</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="193"/>
        <source>Operational settings</source>
        <translation>运营参数</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="278"/>
        <location filename="../../views/admin/adminpage.cpp" line="328"/>
        <source>%1 is now %2.</source>
        <translation>%1 已改为 %2。</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="279"/>
        <source>Not changed: %1</source>
        <translation>未修改：%1</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="466"/>
        <source>Account %1 added.</source>
        <translation>已添加账号 %1。</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="469"/>
        <source>Not added: %1</source>
        <translation>未添加：%1</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="295"/>
        <source>Account %1 disabled.</source>
        <translation>已停用账号 %1。</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="296"/>
        <source>Not disabled: %1</source>
        <translation>未停用：%1</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="312"/>
        <source>Account %1 enabled.</source>
        <translation>已启用账号 %1。</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="313"/>
        <source>Not enabled: %1</source>
        <translation>未启用：%1</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="329"/>
        <source>Role not changed: %1</source>
        <translation>角色未更改：%1</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="372"/>
        <location filename="../../views/admin/adminpage.cpp" line="401"/>
        <location filename="../../views/admin/adminpage.cpp" line="509"/>
        <location filename="../../views/admin/adminpage.cpp" line="534"/>
        <source>Why (audited)</source>
        <translation>原因（记入审计）</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="375"/>
        <source>Change the role of %1</source>
        <translation>更改 %1 的角色</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="403"/>
        <source>Change %1</source>
        <translation>修改 %1</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="404"/>
        <source>&amp;Value (%1 … %2):</source>
        <translation>值（%1 … %2）(&amp;V)：</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="376"/>
        <location filename="../../views/admin/adminpage.cpp" line="405"/>
        <location filename="../../views/admin/adminpage.cpp" line="512"/>
        <location filename="../../views/admin/adminpage.cpp" line="537"/>
        <source>&amp;Reason:</source>
        <translation>原因(&amp;R)：</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="482"/>
        <source>Add a staff account</source>
        <translation>添加员工账号</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="483"/>
        <source>&amp;User name:</source>
        <translation>用户名(&amp;U)：</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="484"/>
        <source>&amp;Display name:</source>
        <translation>显示名称(&amp;D)：</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="376"/>
        <location filename="../../views/admin/adminpage.cpp" line="485"/>
        <source>&amp;Role:</source>
        <translation>角色(&amp;R)：</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="453"/>
        <source>Adding %1…</source>
        <translation>正在添加 %1…</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="486"/>
        <location filename="../../views/admin/adminpage.cpp" line="565"/>
        <source>&amp;Password:</source>
        <translation>密码(&amp;P)：</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="487"/>
        <location filename="../../views/admin/adminpage.cpp" line="565"/>
        <source>&amp;Again:</source>
        <translation>再次输入(&amp;A)：</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="491"/>
        <source>Type a user name.</source>
        <translation>请输入用户名。</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="493"/>
        <location filename="../../views/admin/adminpage.cpp" line="568"/>
        <source>Type the password twice, the same both times.</source>
        <translation>请输入两次相同的密码。</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="512"/>
        <source>Disable %1</source>
        <translation>停用 %1</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="537"/>
        <source>Enable %1</source>
        <translation>启用 %1</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="564"/>
        <source>New password for %1</source>
        <translation>为 %1 设置新密码</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="584"/>
        <source>Password of %1 reset.</source>
        <translation>已重置 %1 的密码。</translation>
    </message>
    <message>
        <location filename="../../views/admin/adminpage.cpp" line="585"/>
        <source>Not reset: %1</source>
        <translation>未重置：%1</translation>
    </message>
</context>
<context>
    <name>OncePay::ApprovalsPage</name>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="51"/>
        <source>The comment has %1 characters; a decision keeps at most %2.</source>
        <translation>备注有 %1 个字符；一项决定最多保留 %2 个字符。</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="79"/>
        <source>&lt;h2&gt;Approvals&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;审批&lt;/h2&gt;</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="82"/>
        <source>Waiting for approval</source>
        <translation>等待审批</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="83"/>
        <source>Decided</source>
        <translation>已决定</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="85"/>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="88"/>
        <source>All kinds</source>
        <translation>全部类型</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="93"/>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="141"/>
        <source>Evidence: the order&apos;s history or the discrepancy</source>
        <translation>证据：订单历史或对账差异</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="142"/>
        <source>&amp;Approve…</source>
        <translation>批准(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="144"/>
        <source>Re&amp;ject…</source>
        <translation>驳回(&amp;J)…</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="146"/>
        <source>Open &amp;order</source>
        <translation>打开订单(&amp;O)</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="162"/>
        <source>&lt;b&gt;Change&lt;/b&gt; (before → after)</source>
        <translation>&lt;b&gt;变更&lt;/b&gt;（之前 → 之后）</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="166"/>
        <source>&lt;b&gt;Evidence&lt;/b&gt;</source>
        <translation>&lt;b&gt;证据&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="189"/>
        <source>&amp;Show:</source>
        <translation>显示(&amp;S)：</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="193"/>
        <source>&amp;Kind:</source>
        <translation>类型(&amp;K)：</translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/approvals/approvalspage.cpp" line="241"/>
        <source>%n proposal(s) shown.</source>
        <translation>
            <numerusform>显示 %n 条修复提议。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/approvals/approvalspage.cpp" line="243"/>
        <source>%n waiting for a decision.</source>
        <translation>
            <numerusform>%n 条等待决定。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/approvals/approvalspage.cpp" line="246"/>
        <source>%n of them are yours: another reviewer decides those.</source>
        <translation>
            <numerusform>其中 %n 条是您提出的：须由其他审核人决定。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="248"/>
        <source>Your role may read proposals but not decide them.</source>
        <translation>您的角色可以查看提议，但不能决定。</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="341"/>
        <source>Select a proposal to see its change and evidence.</source>
        <translation>选择一条提议以查看其变更和证据。</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="350"/>
        <source>&lt;b&gt;Fix #%1 — %2&lt;/b&gt; on %3&lt;br&gt;Proposed by %4 (%5) from %6, %7&lt;br&gt;Reason: %8 — %9&lt;br&gt;Status: %10 · approvals %11 of %12</source>
        <translation>&lt;b&gt;修复 #%1 — %2&lt;/b&gt;，对象 %3&lt;br&gt;由 %4（%5）于 %6 提出，%7&lt;br&gt;原因：%8 — %9&lt;br&gt;状态：%10 · 已批准 %11 / %12</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="363"/>
        <source>Bound to order version %1</source>
        <translation>绑定订单版本 %1</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="369"/>
        <source>This is your proposal: another finance reviewer must decide it.</source>
        <translation>这是您的提议：须由另一位财务审核人决定。</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="371"/>
        <source>Digest</source>
        <translation>摘要</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="380"/>
        <source>%1: %2 by %3 from %4%5</source>
        <translation>%1：%3 于 %4 %2%5</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="382"/>
        <source>approved</source>
        <translation>批准</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="382"/>
        <source>rejected</source>
        <translation>驳回</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="388"/>
        <source>No decisions yet.</source>
        <translation>尚无决定。</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="396"/>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="428"/>
        <source>Approve fix #%1</source>
        <translation>批准修复 #%1</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="431"/>
        <source>Optional comment (audited)</source>
        <translation>备注（可选，记入审计）</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="433"/>
        <source>&amp;Approve</source>
        <translation>批准(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="441"/>
        <source>You approve exactly this change (digest %1…). %2</source>
        <translation>您批准的正是此变更（摘要 %1…）。%2</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="444"/>
        <source>It is applied at once.</source>
        <translation>批准后立即执行。</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="445"/>
        <source>It needs one more approval from someone else.</source>
        <translation>还需要另一人批准。</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="449"/>
        <location filename="../../views/approvals/approvalspage.cpp" line="481"/>
        <source>&amp;Comment:</source>
        <translation>备注(&amp;C)：</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="463"/>
        <source>Reject fix #%1</source>
        <translation>驳回修复 #%1</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="470"/>
        <source>Why (required, audited)</source>
        <translation>原因（必填，记入审计）</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="472"/>
        <source>Re&amp;ject</source>
        <translation>驳回(&amp;J)</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="480"/>
        <source>&amp;Reason:</source>
        <translation>原因(&amp;R)：</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="522"/>
        <source>Fix #%1 approved and applied.</source>
        <translation>修复 #%1 已批准并执行。</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="524"/>
        <source>Fix #%1 rejected.</source>
        <translation>修复 #%1 已驳回。</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="525"/>
        <source>Fix #%1 approved; it needs %2 more approval(s).</source>
        <translation>修复 #%1 已批准；还需要 %2 次批准。</translation>
    </message>
    <message>
        <location filename="../../views/approvals/approvalspage.cpp" line="537"/>
        <source>Fix #%1: %2</source>
        <translation>修复 #%1：%2</translation>
    </message>
</context>
<context>
    <name>OncePay::AuditActions</name>
    <message>
        <location filename="../../models/common/labels.cpp" line="185"/>
        <source>order created</source>
        <translation>创建订单</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="186"/>
        <source>order state changed</source>
        <translation>订单状态变更</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="187"/>
        <source>order rolled back</source>
        <translation>订单回滚</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="189"/>
        <source>state change refused</source>
        <translation>状态变更被拒绝</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="190"/>
        <source>payment booked</source>
        <translation>收款入账</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="191"/>
        <source>refund booked</source>
        <translation>退款入账</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="193"/>
        <source>payment flagged for refund</source>
        <translation>标记待退款</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="194"/>
        <source>callback processed</source>
        <translation>回调已处理</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="195"/>
        <source>callback skipped</source>
        <translation>回调已跳过</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="196"/>
        <source>callback failed</source>
        <translation>回调处理失败</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="198"/>
        <source>callback dead-lettered</source>
        <translation>回调转入死信</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="200"/>
        <source>callback refused at the door</source>
        <translation>回调在入口处被拒绝</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="201"/>
        <source>fix proposed</source>
        <translation>提议修复</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="202"/>
        <source>fix approved</source>
        <translation>批准修复</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="203"/>
        <source>fix rejected</source>
        <translation>驳回修复</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="204"/>
        <source>fix applied</source>
        <translation>执行修复</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="205"/>
        <source>fix failed</source>
        <translation>修复失败</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="206"/>
        <source>fix request refused</source>
        <translation>修复请求被拒绝</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="207"/>
        <source>signed in</source>
        <translation>登录成功</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="208"/>
        <source>sign-in failed</source>
        <translation>登录失败</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="209"/>
        <source>sign-in refused</source>
        <translation>登录被拒绝</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="210"/>
        <source>account locked</source>
        <translation>账号已锁定</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="211"/>
        <source>signed out</source>
        <translation>已退出登录</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="212"/>
        <source>staff account added</source>
        <translation>添加员工账号</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="213"/>
        <source>staff account disabled</source>
        <translation>停用员工账号</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="214"/>
        <source>staff account enabled</source>
        <translation>启用员工账号</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="215"/>
        <source>password reset</source>
        <translation>重置密码</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="216"/>
        <source>role changed</source>
        <translation>角色已更改</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="217"/>
        <source>staff change refused</source>
        <translation>员工账户变更被拒绝</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="218"/>
        <source>setting changed</source>
        <translation>修改运营参数</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="219"/>
        <source>setting change refused</source>
        <translation>运营参数修改被拒绝</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="221"/>
        <source>settlement statement imported</source>
        <translation>导入结算单</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="223"/>
        <source>settlement lines in conflict with those imported</source>
        <translation>结算明细与已导入的不一致</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="225"/>
        <source>fee schedule imported</source>
        <translation>导入费率表</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="226"/>
        <source>reconciliation run</source>
        <translation>运行对账</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="228"/>
        <source>reconciliation run failed</source>
        <translation>对账运行失败</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="230"/>
        <source>reconciliation run cancelled</source>
        <translation>对账运行已取消</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="232"/>
        <source>reconciliation run refused</source>
        <translation>对账运行被拒绝</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="234"/>
        <source>fee corrected automatically</source>
        <translation>手续费自动更正</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="235"/>
        <source>audit trail exported</source>
        <translation>导出审计轨迹</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="237"/>
        <source>audit trail export refused</source>
        <translation>审计轨迹导出被拒绝</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="239"/>
        <source>audit trail access refused</source>
        <translation>审计轨迹访问被拒绝</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="240"/>
        <source>audit cross-check</source>
        <translation>审计交叉核对</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="241"/>
        <source>audit chain sealed</source>
        <translation>审计链已封存</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="242"/>
        <source>dispute dossier exported</source>
        <translation>导出争议案卷</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="244"/>
        <source>dispute dossier export refused</source>
        <translation>拒绝导出争议案卷</translation>
    </message>
</context>
<context>
    <name>OncePay::AuditPdfWriter</name>
    <message>
        <location filename="../../models/audit/auditpdfwriter.cpp" line="43"/>
        <location filename="../../models/audit/auditpdfwriter.cpp" line="64"/>
        <source>OncePay audit trail report</source>
        <translation>OncePay 审计轨迹报告</translation>
    </message>
    <message>
        <location filename="../../models/audit/auditpdfwriter.cpp" line="66"/>
        <source>Filter: %1</source>
        <translation>筛选：%1</translation>
    </message>
    <message>
        <location filename="../../models/audit/auditpdfwriter.cpp" line="67"/>
        <source>Chain head: seq %1, hash %2</source>
        <translation>链头：序号 %1，哈希 %2</translation>
    </message>
    <message>
        <location filename="../../models/audit/auditpdfwriter.cpp" line="69"/>
        <source>Seal: checkpoint %1 at seq %2 (key %3, sealed %4 by %5); %6 row(s) after it</source>
        <translation>封印：检查点 %1，序号 %2（密钥 %3，%4 由 %5 封印）；其后 %6 行</translation>
    </message>
    <message>
        <location filename="../../models/audit/auditpdfwriter.cpp" line="76"/>
        <source>Seal: none yet — the rows are covered by the hash chain only</source>
        <translation>封印：尚无 —— 这些行仅由哈希链保护</translation>
    </message>
    <message>
        <location filename="../../models/audit/auditpdfwriter.cpp" line="77"/>
        <source>Generated %1 by %2 (%3); export %4</source>
        <translation>生成于 %1，生成者 %2（%3）；导出 %4</translation>
    </message>
    <message>
        <location filename="../../models/audit/auditpdfwriter.cpp" line="81"/>
        <source>Rows: %1. Amounts are integer minor units with their currency, as recorded.</source>
        <translation>行数：%1。金额按记录值以最小货币单位整数及其币种给出。</translation>
    </message>
    <message>
        <location filename="../../models/audit/auditpdfwriter.cpp" line="102"/>
        <source>Seq</source>
        <translation>序号</translation>
    </message>
    <message>
        <location filename="../../models/audit/auditpdfwriter.cpp" line="102"/>
        <source>Time (UTC)</source>
        <translation>时间（UTC）</translation>
    </message>
    <message>
        <location filename="../../models/audit/auditpdfwriter.cpp" line="102"/>
        <source>Actor (role)</source>
        <translation>操作者（角色）</translation>
    </message>
    <message>
        <location filename="../../models/audit/auditpdfwriter.cpp" line="102"/>
        <source>Action</source>
        <translation>动作</translation>
    </message>
    <message>
        <location filename="../../models/audit/auditpdfwriter.cpp" line="103"/>
        <source>Entity</source>
        <translation>实体</translation>
    </message>
    <message>
        <location filename="../../models/audit/auditpdfwriter.cpp" line="103"/>
        <source>Order</source>
        <translation>订单</translation>
    </message>
    <message>
        <location filename="../../models/audit/auditpdfwriter.cpp" line="103"/>
        <source>Callback</source>
        <translation>回调</translation>
    </message>
    <message>
        <location filename="../../models/audit/auditpdfwriter.cpp" line="103"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../models/audit/auditpdfwriter.cpp" line="118"/>
        <source>Page %1 · export %2 · chain head seq %3</source>
        <translation>第 %1 页 · 导出 %2 · 链头序号 %3</translation>
    </message>
    <message>
        <location filename="../../models/audit/auditpdfwriter.cpp" line="161"/>
        <source>reason: %1</source>
        <translation>原因：%1</translation>
    </message>
    <message>
        <location filename="../../models/audit/auditpdfwriter.cpp" line="173"/>
        <source>End of report: %1 row(s).</source>
        <translation>报告结束：共 %1 行。</translation>
    </message>
</context>
<context>
    <name>OncePay::AuditRowModel</name>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="358"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="359"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="361"/>
        <source>Actor</source>
        <translation>执行者</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="362"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="364"/>
        <source>Entity</source>
        <translation>对象</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="365"/>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="367"/>
        <source>Before</source>
        <translation>变更前</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="368"/>
        <source>After</source>
        <translation>变更后</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="369"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="376"/>
        <source>Shipped</source>
        <translation>已归档</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="378"/>
        <source>not yet</source>
        <translation>尚未</translation>
    </message>
</context>
<context>
    <name>OncePay::AuditTrailModel</name>
    <message>
        <location filename="../../models/audit/audittrailmodel.cpp" line="97"/>
        <source>%1 (recorded in minor units)</source>
        <translation>%1（按最小货币单位记录）</translation>
    </message>
    <message>
        <location filename="../../models/audit/audittrailmodel.cpp" line="116"/>
        <source>Seq</source>
        <translation>序号</translation>
    </message>
    <message>
        <location filename="../../models/audit/audittrailmodel.cpp" line="117"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../models/audit/audittrailmodel.cpp" line="118"/>
        <source>Actor</source>
        <translation>操作者</translation>
    </message>
    <message>
        <location filename="../../models/audit/audittrailmodel.cpp" line="119"/>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <location filename="../../models/audit/audittrailmodel.cpp" line="120"/>
        <source>Action</source>
        <translation>动作</translation>
    </message>
    <message>
        <location filename="../../models/audit/audittrailmodel.cpp" line="121"/>
        <source>Entity</source>
        <translation>实体</translation>
    </message>
    <message>
        <location filename="../../models/audit/audittrailmodel.cpp" line="122"/>
        <source>Order</source>
        <translation>订单</translation>
    </message>
    <message>
        <location filename="../../models/audit/audittrailmodel.cpp" line="123"/>
        <source>Callback</source>
        <translation>回调</translation>
    </message>
    <message>
        <location filename="../../models/audit/audittrailmodel.cpp" line="124"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../models/audit/audittrailmodel.cpp" line="125"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
</context>
<context>
    <name>OncePay::AuditTrailPage</name>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="57"/>
        <source>&lt;h2&gt;Audit trail&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;审计轨迹&lt;/h2&gt;</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="67"/>
        <source>2026-11-01 or 2026-11-01T09:00Z</source>
        <translation>2026-11-01 或 2026-11-01T09:00Z</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="68"/>
        <source>before this time (UTC)</source>
        <translation>早于此时间（UTC）</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="69"/>
        <source>user name or worker</source>
        <translation>用户名或工作进程</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="70"/>
        <source>order.transition or order.*</source>
        <translation>order.transition 或 order.*</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="71"/>
        <source>order id</source>
        <translation>订单号</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="72"/>
        <source>callback id</source>
        <translation>回调号</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="73"/>
        <source>kind, or kind:id</source>
        <translation>类型，或 类型:编号</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="74"/>
        <source>&amp;Apply</source>
        <translation>应用(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="78"/>
        <source>&amp;Verify chain</source>
        <translation>校验链(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="80"/>
        <source>Check every row&apos;s hash, the sequence and the signed seals</source>
        <translation>检查每一行的哈希、序号连续性和签名封印</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="82"/>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="84"/>
        <source>Export what the filter shows, with a manifest beside the file</source>
        <translation>导出筛选结果，并在文件旁附带清单</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="86"/>
        <source>CSV (spreadsheets)…</source>
        <translation>CSV（电子表格）…</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="88"/>
        <source>JSON (tools, hashes recomputable)…</source>
        <translation>JSON（工具用，可重算哈希）…</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="90"/>
        <source>PDF report for auditors…</source>
        <translation>审计员 PDF 报告…</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="93"/>
        <source>Verify an export…</source>
        <translation>校验导出文件…</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="95"/>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="131"/>
        <source>Enter or double-click opens the order</source>
        <translation>按回车或双击打开订单</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="149"/>
        <source>Select a row to see what changed</source>
        <translation>选择一行查看变更内容</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="160"/>
        <source>&amp;From:</source>
        <translation>从(&amp;F)：</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="161"/>
        <source>&amp;To:</source>
        <translation>到(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="162"/>
        <source>Ac&amp;tor:</source>
        <translation>操作者(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="163"/>
        <source>Actio&amp;n:</source>
        <translation>动作(&amp;N)：</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="164"/>
        <source>&amp;Order:</source>
        <translation>订单(&amp;O)：</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="165"/>
        <source>Call&amp;back:</source>
        <translation>回调(&amp;B)：</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="166"/>
        <source>E&amp;ntity:</source>
        <translation>实体(&amp;N)：</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="200"/>
        <source>“%1” is not a time. Use 2026-11-01, 2026-11-01T09:00Z or epoch milliseconds.</source>
        <translation>“%1”不是时间。请使用 2026-11-01、2026-11-01T09:00Z 或纪元毫秒数。</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="228"/>
        <source>“To” (%1) is not after “From” (%2): no rows are shown until it is.</source>
        <translation>“到”（%1）不晚于“从”（%2）：改正之前不显示任何行。</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="231"/>
        <source>“*” alone is not an action: leave Action empty to see every action.</source>
        <translation>单独的“*”不是动作：要查看所有动作，请将“动作”留空。</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="233"/>
        <source>“%1” is not an action: “*” may only end one, as in order.* (every order action). No rows are shown until it is corrected.</source>
        <translation>“%1”不是动作：“*”只能出现在末尾，如 order.*（所有订单动作）。改正之前不显示任何行。</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="236"/>
        <source>The filter cannot be used: %1</source>
        <translation>无法使用此筛选条件：%1</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="259"/>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="434"/>
        <source>seq %1 · event %2
</source>
        <translation>序号 %1 · 事件 %2
</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="435"/>
        <source>occurred %1 (UTC), recorded %2 (UTC)
</source>
        <translation>发生于 %1（UTC），记录于 %2（UTC）
</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="438"/>
        <source>%1 (%2) · %3 · %4 %5
</source>
        <translation>%1（%2）· %3 · %4 %5
</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="440"/>
        <source>order %1 · callback %2
</source>
        <translation>订单 %1 · 回调 %2
</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="447"/>
        <source>reason: %1
</source>
        <translation>原因：%1
</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="449"/>
        <source>reason as stored: %1
</source>
        <translation>存储的原因：%1
</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="452"/>
        <source>
before:
%1

after:
%2
</source>
        <translation>
变更前 before:
%1

变更后 after:
%2
</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="453"/>
        <source>
prev_hash %1
hash      %2</source>
        <translation>
prev_hash %1
hash      %2</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="473"/>
        <source>The audit database has an older schema; run `oncepay db migrate`.</source>
        <translation>审计库的架构版本较旧；请运行 `oncepay db migrate`。</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="474"/>
        <source>The orders database has an older schema; run `oncepay db migrate`.</source>
        <translation>订单库的架构版本较旧；请运行 `oncepay db migrate`。</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="478"/>
        <source>The audit database was created by a newer OncePay. Upgrade this console before using it.</source>
        <translation>审计库由更新版本的 OncePay 创建。请先升级本控制台再使用。</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="480"/>
        <source>The orders database was created by a newer OncePay. Upgrade this console before using it.</source>
        <translation>订单库由更新版本的 OncePay 创建。请先升级本控制台再使用。</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="484"/>
        <source>The audit database cannot be reached. It will be tried again on the next refresh.</source>
        <translation>无法连接审计库。下次刷新时将重试。</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="486"/>
        <source>The orders database cannot be reached. It will be tried again on the next refresh.</source>
        <translation>无法连接订单库。下次刷新时将重试。</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="490"/>
        <source>Audit database: %1</source>
        <translation>审计库：%1</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="491"/>
        <source>Orders database: %1</source>
        <translation>订单库：%1</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="173"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="182"/>
        <source>Verifying the audit chain…</source>
        <translation>正在校验审计链…</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="146"/>
        <source>%1 of %2 rows</source>
        <translation>%1 / %2 行</translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/audit/audittrailpage.cpp" line="277"/>
        <source>%n row(s) in the audit database match: %1.</source>
        <translation>
            <numerusform>审计库中有 %n 行符合：%1。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpage.cpp" line="309"/>
        <source>Whether audited events are still waiting to be shipped into the audit database is not known: %1</source>
        <translation>无法确定是否仍有审计事件等待送入审计库：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/audit/audittrailpage.cpp" line="320"/>
        <source>%n audited event(s) are not yet in the audit database (oldest %1); they are shipped by the workers or &lt;tt&gt;oncepay audit ship&lt;/tt&gt;.</source>
        <translation>
            <numerusform>有 %n 个审计事件尚未进入审计库（最早 %1）；由工作进程或 &lt;tt&gt;oncepay audit ship&lt;/tt&gt; 送入。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="58"/>
        <source>altered</source>
        <translation>篡改</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="59"/>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="60"/>
        <source>reordered</source>
        <translation>重排</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="61"/>
        <source>truncated</source>
        <translation>截断</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="62"/>
        <source>seal does not match</source>
        <translation>封印不符</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="63"/>
        <source>bad signature</source>
        <translation>签名无效</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="64"/>
        <source>no public key</source>
        <translation>无公钥</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="103"/>
        <source>Row seq %1 is not among the rows the filter shows; clear the filter to see it.</source>
        <translation>序号 %1 的行不在当前筛选结果中；清除筛选条件即可看到。</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="110"/>
        <source>Row seq %1 is further down than the %2 rows loaded; narrow the filter (From:, To:) to see it.</source>
        <translation>序号 %1 的行位于已加载的 %2 行之后；请缩小筛选范围（从：、到：）以查看。</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="210"/>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="362"/>
        <source>&lt;b&gt;Not verified&lt;/b&gt;: %1</source>
        <translation>&lt;b&gt;未验证&lt;/b&gt;：%1</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="217"/>
        <source>&lt;b&gt;The audit chain is broken&lt;/b&gt; at row seq %1 (%2): %3</source>
        <translation>&lt;b&gt;审计链已损坏&lt;/b&gt;，位于序号 %1 的行（%2）：%3</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="222"/>
        <source>Verification cancelled after %1 of %2 rows.</source>
        <translation>已在 %2 行中的第 %1 行后取消校验。</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="226"/>
        <source>&lt;b&gt;The audit chain is valid&lt;/b&gt;: %1 rows up to seq %2, %3 seal(s) verified; sealed up to seq %4, %5 row(s) after the last seal.</source>
        <translation>&lt;b&gt;审计链有效&lt;/b&gt;：%1 行，至序号 %2，已验证 %3 个封印；已封印至序号 %4，最后封印之后有 %5 行。</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="234"/>
        <source>&lt;b&gt;The audit chain is valid&lt;/b&gt;: %1 rows up to seq %2; no seal yet.</source>
        <translation>&lt;b&gt;审计链有效&lt;/b&gt;：%1 行，至序号 %2；尚无封印。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="239"/>
        <source>%n audited event(s) are not in the chain yet: they still wait in the outbox (oldest %1).</source>
        <translation>
            <numerusform>有 %n 个审计事件尚未进入哈希链：仍在发件箱中等待（最早 %1）。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="260"/>
        <source>Export the audit trail</source>
        <translation>导出审计轨迹</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="261"/>
        <source>%1 files (*.%2)</source>
        <translation>%1 文件 (*.%2)</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="275"/>
        <source>Exporting to %1…</source>
        <translation>正在导出到 %1…</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="302"/>
        <source>&lt;b&gt;Not exported&lt;/b&gt;: %1</source>
        <translation>&lt;b&gt;未导出&lt;/b&gt;：%1</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="308"/>
        <source>Export cancelled; no file was written.</source>
        <translation>导出已取消；未写入任何文件。</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="313"/>
        <source>Exported %1 row(s) to %2&lt;br&gt;Manifest: %3&lt;br&gt;SHA-256: &lt;tt&gt;%4&lt;/tt&gt;&lt;br&gt;Chain head seq %5%6</source>
        <translation>已导出 %1 行到 %2&lt;br&gt;清单：%3&lt;br&gt;SHA-256：&lt;tt&gt;%4&lt;/tt&gt;&lt;br&gt;链头序号 %5%6</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="319"/>
        <source>, sealed at seq %1</source>
        <translation>，已封印于序号 %1</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="320"/>
        <source>, not sealed yet</source>
        <translation>，尚未封印</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="329"/>
        <source>Verify an audit export</source>
        <translation>校验审计导出文件</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="330"/>
        <source>Export manifests (*.manifest.json)</source>
        <translation>导出清单 (*.manifest.json)</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="340"/>
        <source>Verifying the export %1…</source>
        <translation>正在校验导出文件 %1…</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="371"/>
        <source>Verification of the export cancelled; nothing was concluded.</source>
        <translation>导出文件校验已取消；未得出任何结论。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="374"/>
        <source>&lt;b&gt;The export verifies&lt;/b&gt;: %1 holds the %n row(s) its manifest describes; chain head seq %2 is in the audit log unchanged</source>
        <translation>
            <numerusform>&lt;b&gt;导出文件校验通过&lt;/b&gt;：%1 包含其清单所述的 %n 行；链头序号 %2 在审计日志中未被改动</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="379"/>
        <source>; seal %1 (seq %2) unchanged</source>
        <translation>；封印 %1（序号 %2）未被改动</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="384"/>
        <source>; its audit row (seq %1) recorded this very file</source>
        <translation>；其审计行（序号 %1）记录的正是此文件</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="385"/>
        <source>; its audit event (not yet shipped into the audit log) recorded this very file</source>
        <translation>；其审计事件（尚未送入审计库）记录的正是此文件</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="388"/>
        <source>; every row is the same as in the audit log</source>
        <translation>；每一行都与审计日志一致</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="390"/>
        <source>; every row&apos;s hash was recomputed</source>
        <translation>；已重新计算每一行的哈希</translation>
    </message>
    <message>
        <location filename="../../views/audit/audittrailpagetasks.cpp" line="396"/>
        <source>&lt;b&gt;The export does NOT verify&lt;/b&gt;:</source>
        <translation>&lt;b&gt;导出文件校验未通过&lt;/b&gt;：</translation>
    </message>
</context>
<context>
    <name>OncePay::ChangeModel</name>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="124"/>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="136"/>
        <source>Before</source>
        <translation>之前</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="143"/>
        <source>After</source>
        <translation>之后</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="160"/>
        <source>state</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="162"/>
        <source>status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="164"/>
        <source>version</source>
        <translation>版本</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="166"/>
        <source>attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="168"/>
        <source>updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="170"/>
        <source>result</source>
        <translation>处理结果</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="172"/>
        <source>channel</source>
        <translation>渠道</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="174"/>
        <source>amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="176"/>
        <source>captured</source>
        <translation>已收款</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="178"/>
        <source>short of the order&apos;s amount</source>
        <translation>少于订单金额</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="180"/>
        <source>more than the order&apos;s amount</source>
        <translation>多于订单金额</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="182"/>
        <source>state reason</source>
        <translation>状态原因</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="184"/>
        <source>expected (minor units)</source>
        <translation>应为（最小货币单位）</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="186"/>
        <source>actual (minor units)</source>
        <translation>实际（最小货币单位）</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="188"/>
        <source>ledger entry</source>
        <translation>账目类型</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="190"/>
        <source>ledger order</source>
        <translation>记账订单</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="192"/>
        <source>period from</source>
        <translation>账期开始</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="194"/>
        <source>period to</source>
        <translation>账期结束</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="196"/>
        <source>open discrepancies</source>
        <translation>未结异常</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="198"/>
        <source>reconciliation run</source>
        <translation>对账运行</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="200"/>
        <source>coverage</source>
        <translation>覆盖率</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="214"/>
        <source>open</source>
        <comment>period</comment>
        <translation>未关闭</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="215"/>
        <source>closed</source>
        <comment>period</comment>
        <translation>已关闭</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="242"/>
        <source>Context (not changed by the fix)</source>
        <translation>背景信息（修复不会更改）</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="247"/>
        <source>when applied</source>
        <comment>the time a fix is applied</comment>
        <translation>执行时</translation>
    </message>
</context>
<context>
    <name>OncePay::ConnectionProfilesDialog</name>
    <message>
        <location filename="../../views/connections/connectionprofilesdialog.cpp" line="31"/>
        <source>Connection profiles</source>
        <translation>连接配置</translation>
    </message>
    <message>
        <location filename="../../views/connections/connectionprofilesdialog.cpp" line="36"/>
        <source>Where the console finds its three databases. Saved to %1; passwords are never written there.</source>
        <translation>控制台在何处找到它的三个数据库。保存到 %1；密码从不写入该文件。</translation>
    </message>
    <message>
        <location filename="../../views/connections/connectionprofilesdialog.cpp" line="49"/>
        <source>Messages always use the orders database: claiming a message, moving its order and booking the money commit in one transaction, so the message table cannot live in a database of its own. There is nothing to set here: messages follow the orders profile (same connection).</source>
        <translation>消息始终使用订单数据库：认领消息、推进其订单和记账在同一个事务中提交，因此消息表不能放在单独的数据库中。此处无需设置：消息沿用订单配置（同一连接）。</translation>
    </message>
    <message>
        <location filename="../../views/connections/connectionprofilesdialog.cpp" line="59"/>
        <source>&amp;Orders</source>
        <translation>订单(&amp;O)</translation>
    </message>
    <message>
        <location filename="../../views/connections/connectionprofilesdialog.cpp" line="60"/>
        <source>&amp;Messages</source>
        <translation>消息(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../views/connections/connectionprofilesdialog.cpp" line="61"/>
        <source>&amp;Audit</source>
        <translation>审计(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../views/connections/connectionprofilesdialog.cpp" line="67"/>
        <source>No keychain is available on this computer: server passwords are asked at each start or read from an environment variable.</source>
        <translation>此计算机上没有可用的钥匙串：服务器密码将在每次启动时询问，或从环境变量读取。</translation>
    </message>
    <message>
        <location filename="../../views/connections/connectionprofilesdialog.cpp" line="71"/>
        <source>&amp;Save and switch</source>
        <translation>保存并切换(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../views/connections/connectionprofilesdialog.cpp" line="107"/>
        <source>The option “%1” would carry a secret, and the configuration file is plain text. Remove it from Options and choose where the password comes from under “Password from”.</source>
        <translation>选项“%1”会携带机密信息，而配置文件是明文。请从“选项”中删除它，并在“密码来源”中选择密码的来源。</translation>
    </message>
    <message>
        <location filename="../../views/connections/connectionprofilesdialog.cpp" line="127"/>
        <source>The password was cleared. Type it again to keep it in the keychain, or choose “Asked at each start” to remove it from the keychain.</source>
        <translation>密码已被清空。请重新输入以保存在钥匙串中，或选择“每次启动时询问”以将其从钥匙串中删除。</translation>
    </message>
    <message>
        <location filename="../../views/connections/connectionprofilesdialog.cpp" line="146"/>
        <source>The password could not be stored in the keychain: %1</source>
        <translation>无法将密码保存到钥匙串：%1</translation>
    </message>
    <message>
        <location filename="../../views/connections/connectionprofilesdialog.cpp" line="153"/>
        <source>Type the password once so it can be kept in the keychain.</source>
        <translation>请输入一次密码，以便保存在钥匙串中。</translation>
    </message>
</context>
<context>
    <name>OncePay::ConnectionStatusModel</name>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="109"/>
        <source>Orders</source>
        <translation>订单库</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="110"/>
        <source>Messages</source>
        <translation>消息库</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="111"/>
        <source>Audit</source>
        <translation>审计库</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="43"/>
        <source>Unreachable</source>
        <translation>无法连接</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="36"/>
        <source>OK</source>
        <translation>正常</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="38"/>
        <source>Newer than this console</source>
        <translation>比本控制台新</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="38"/>
        <source>Migration pending</source>
        <translation>待迁移</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="40"/>
        <source>File not found</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="41"/>
        <source>Login refused</source>
        <translation>登录被拒绝</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="42"/>
        <source>Wrong database</source>
        <translation>数据库不对</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="52"/>
        <source>Reachable; schema version %1, the one this console expects.</source>
        <translation>可连接；数据库结构版本 %1，正是本控制台所需的版本。</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="56"/>
        <source>The database has schema version %1, newer than this console knows (%2): this console is older than the database. Upgrade the console to the engine&apos;s version; until then it shows no data from this database and writes nothing to it.</source>
        <translation>数据库结构版本为 %1，比本控制台所知的版本（%2）新：本控制台比数据库旧。请将控制台升级到与引擎相同的版本；在此之前，它不显示此数据库的数据，也不向其写入任何内容。</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="62"/>
        <source>The database has schema version %1; this console expects %2. A migration is pending: run “oncepay db migrate”.</source>
        <translation>数据库结构版本为 %1，本控制台需要 %2。有待执行的迁移：请运行“oncepay db migrate”。</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="68"/>
        <source>database file not found: %1</source>
        <translation>找不到数据库文件：%1</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="70"/>
        <source>The server refused the login; check the user, its password and the database name in the connection profile: %1</source>
        <translation>服务器拒绝了登录；请检查连接配置中的用户名、密码和数据库名：%1</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="74"/>
        <source>Reachable, but not this profile&apos;s database: %1</source>
        <translation>可以连接，但不是此配置的数据库：%1</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="76"/>
        <source>Cannot reach the database: %1</source>
        <translation>无法连接数据库：%1</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="115"/>
        <source>%1 (same database as orders)</source>
        <translation>%1（与订单库相同）</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="118"/>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="134"/>
        <source>Database</source>
        <translation>数据库</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="135"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="136"/>
        <source>Driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="137"/>
        <source>Location</source>
        <translation>位置</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="138"/>
        <source>Server version</source>
        <translation>服务器版本</translation>
    </message>
    <message>
        <location filename="../../models/connections/connectionstatusmodel.cpp" line="139"/>
        <source>Schema</source>
        <translation>结构版本</translation>
    </message>
</context>
<context>
    <name>OncePay::ConnectionsPage</name>
    <message>
        <location filename="../../views/connections/connectionspage.cpp" line="23"/>
        <source>&lt;h2&gt;Databases&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;数据库&lt;/h2&gt;</translation>
    </message>
    <message>
        <location filename="../../views/connections/connectionspage.cpp" line="33"/>
        <source>Check again</source>
        <translation>重新检查</translation>
    </message>
    <message>
        <location filename="../../views/connections/connectionspage.cpp" line="55"/>
        <source>Checking the orders, messages and audit databases…</source>
        <translation>正在检查订单、消息和审计数据库……</translation>
    </message>
    <message>
        <location filename="../../views/connections/connectionspage.cpp" line="66"/>
        <source>All three databases are reachable and up to date.</source>
        <translation>三个数据库均可连接，结构版本均为最新。</translation>
    </message>
    <message>
        <location filename="../../views/connections/connectionspage.cpp" line="69"/>
        <source>All three databases are reachable, but a schema is not the version this console expects; see the Status column.</source>
        <translation>三个数据库均可连接，但有数据库的结构版本与本控制台所需不符；请查看“状态”列。</translation>
    </message>
    <message>
        <location filename="../../views/connections/connectionspage.cpp" line="74"/>
        <source>At least one database is unreachable; see the Status column.</source>
        <translation>至少有一个数据库无法连接，请查看“状态”列。</translation>
    </message>
</context>
<context>
    <name>OncePay::DashboardPage</name>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="107"/>
        <source>&lt;h2&gt;Dashboard&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;仪表盘&lt;/h2&gt;</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="110"/>
        <source>Last hour</source>
        <translation>最近 1 小时</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="111"/>
        <source>Last 24 hours</source>
        <translation>最近 24 小时</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="112"/>
        <source>Last 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="113"/>
        <source>Last 30 days</source>
        <translation>最近 30 天</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="116"/>
        <source>30 days up to the latest activity</source>
        <translation>截至最近一次活动的 30 天</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="119"/>
        <source>Time range of the callback chart and the message statuses</source>
        <translation>回调图表和消息状态所用的时间范围</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="124"/>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="135"/>
        <source>Range:</source>
        <translation>范围：</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="184"/>
        <source>An order stays paid until its refunds reach what was captured; these paid orders had part of their money refunded (the ledger&apos;s refund debits).</source>
        <translation>订单在退款达到已收款金额之前一直保持已支付；这些已支付订单有部分款项已退款（按账本中的退款借记统计）。</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="214"/>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="288"/>
        <source>&lt;b&gt;Open discrepancies by channel&lt;/b&gt;</source>
        <translation>&lt;b&gt;各渠道未结差异&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="242"/>
        <source>Loading…</source>
        <translation>加载中……</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="275"/>
        <source>Updated %1</source>
        <translation>更新于 %1</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="278"/>
        <source>Messages by status (range)</source>
        <translation>消息状态（所选范围）</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="280"/>
        <source>Orders by state (now)</source>
        <translation>订单状态（当前）</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="300"/>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="305"/>
        <source>Stuck records by kind (now)</source>
        <translation>滞留记录类型（当前）</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="307"/>
        <source>Stuck records by kind (now) — not counted</source>
        <translation>滞留记录类型（当前）— 未统计</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="311"/>
        <source>Stuck records could not be counted: %1</source>
        <translation>无法统计滞留记录：%1</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="326"/>
        <source>This range ends %1; nothing reached the door since.</source>
        <translation>此范围截止于 %1；此后没有请求到达入口。</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="330"/>
        <source>This range ends %1; since then: %2 received, %3 duplicates absorbed at the door, %4 refused at the door.</source>
        <translation>此范围截止于 %1；此后：已接收 %2 条，入口吸收重复回调 %3 条，入口拒绝 %4 条。</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="344"/>
        <source>Paid orders with a partial refund: none</source>
        <translation>部分退款的已支付订单：无</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="350"/>
        <source>too much to total in %1</source>
        <translation>%1 金额过大，无法合计</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="351"/>
        <source>Paid orders with a partial refund: &lt;b&gt;%1&lt;/b&gt; (refunded: %2)</source>
        <translation>部分退款的已支付订单：&lt;b&gt;%1&lt;/b&gt;（已退款：%2）</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="362"/>
        <source>Callbacks over time</source>
        <translation>回调趋势</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="377"/>
        <source>received</source>
        <translation>已接收</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="378"/>
        <source>&lt;b&gt;%1&lt;/b&gt; received</source>
        <translation>已接收 &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="379"/>
        <source>duplicates absorbed</source>
        <translation>已吸收的重复回调</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="381"/>
        <source>&lt;b&gt;%1&lt;/b&gt; duplicates absorbed (%2 at the door, %3 skipped by the worker)</source>
        <translation>已吸收重复回调 &lt;b&gt;%1&lt;/b&gt; 条（入口处 %2 条，工作进程跳过 %3 条）</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="383"/>
        <source>refused as stale</source>
        <translation>因过期被拒</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="384"/>
        <source>&lt;b&gt;%1&lt;/b&gt; refused as stale</source>
        <translation>因过期被拒 &lt;b&gt;%1&lt;/b&gt; 条</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="385"/>
        <source>refused at the door</source>
        <translation>入口拒绝</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="386"/>
        <source>&lt;b&gt;%1&lt;/b&gt; refused at the door</source>
        <translation>在入口处被拒 &lt;b&gt;%1&lt;/b&gt; 条</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="402"/>
        <source>In this range:</source>
        <translation>此时间范围内：</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="466"/>
        <source>%1 — none</source>
        <translation>%1 —— 无</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="151"/>
        <source>Payment results only (successes, failures, refunds). “Duplicates absorbed”: a channel&apos;s redeliveries answered “already received” at the door, and received callbacks the worker skipped because the payment was already applied or its outcome already decided. “Refused as stale”: callbacks of a superseded payment attempt; money they report captured is flagged for refund. “Refused at the door”: bad signature, malformed, too large.</source>
        <translation>仅统计支付结果（成功、失败、退款）。“已吸收的重复回调”：渠道重复投递、在入口处以“已接收”应答的回调，以及工作进程因支付已入账或结果已确定而跳过的已接收回调。“因过期被拒”：已被取代的支付尝试的回调；其报告已扣款的金额被标记为待退款。“在入口处被拒”：签名错误、格式错误或过大。</translation>
    </message>
    <message>
        <location filename="../../views/dashboard/dashboardpage.cpp" line="287"/>
        <source>&lt;b&gt;Open discrepancies by channel&lt;/b&gt; — none open</source>
        <translation>&lt;b&gt;各渠道未结差异&lt;/b&gt; —— 暂无</translation>
    </message>
</context>
<context>
    <name>OncePay::DiscrepancyCurrencyTotalModel</name>
    <message>
        <location filename="../../models/investigation/discrepancymodel.cpp" line="48"/>
        <source>Channel</source>
        <translation>渠道</translation>
    </message>
    <message>
        <location filename="../../models/investigation/discrepancymodel.cpp" line="50"/>
        <source>Total, no currency</source>
        <translation>合计（无币种）</translation>
    </message>
    <message>
        <location filename="../../models/investigation/discrepancymodel.cpp" line="50"/>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location filename="../../models/investigation/discrepancymodel.cpp" line="53"/>
        <source>Open</source>
        <translation>未结</translation>
    </message>
    <message>
        <location filename="../../models/investigation/discrepancymodel.cpp" line="57"/>
        <source>Amount at issue</source>
        <translation>争议金额</translation>
    </message>
    <message>
        <location filename="../../models/investigation/discrepancymodel.cpp" line="59"/>
        <source>too large to total</source>
        <translation>过大，无法合计</translation>
    </message>
</context>
<context>
    <name>OncePay::DiscrepancyDeskModel</name>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="303"/>
        <source>#</source>
        <translation>编号</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="310"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="313"/>
        <source>Channel</source>
        <translation>渠道</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="314"/>
        <source>Transaction</source>
        <translation>交易</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="316"/>
        <source>Order</source>
        <translation>订单</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="317"/>
        <source>Expected</source>
        <translation>应为</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="321"/>
        <source>Actual</source>
        <translation>实际</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="324"/>
        <source>Difference</source>
        <translation>差额</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="328"/>
        <source>Age</source>
        <translation>时长</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="334"/>
        <source>opened %1</source>
        <translation>开立于 %1</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="337"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="340"/>
        <source> (fix #%1 proposed)</source>
        <translation>（已提议修复 #%1）</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="347"/>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
</context>
<context>
    <name>OncePay::DiscrepancyTotalModel</name>
    <message>
        <location filename="../../models/investigation/discrepancymodel.cpp" line="27"/>
        <source>Channel</source>
        <translation>渠道</translation>
    </message>
    <message>
        <location filename="../../models/investigation/discrepancymodel.cpp" line="30"/>
        <source>Open</source>
        <translation>未结</translation>
    </message>
    <message>
        <location filename="../../models/investigation/discrepancymodel.cpp" line="33"/>
        <source>Amount at issue</source>
        <translation>涉及金额</translation>
    </message>
</context>
<context>
    <name>OncePay::Dossier</name>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="42"/>
        <location filename="../../models/investigation/dossier.cpp" line="210"/>
        <source>None.</source>
        <translation>无。</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="74"/>
        <source>[… %1 more characters in the message table]</source>
        <translation>[… 消息表中还有 %1 个字符]</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="158"/>
        <source>Dispute dossier — order %1</source>
        <translation>争议案卷 — 订单 %1</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="160"/>
        <source>Order</source>
        <translation>订单</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="161"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="162"/>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="163"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="164"/>
        <source>Amount in minor units</source>
        <translation>金额（最小货币单位）</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="166"/>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="167"/>
        <source>Channel</source>
        <translation>渠道</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="168"/>
        <source>Channel transaction</source>
        <translation>渠道交易号</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="169"/>
        <source>Current attempt</source>
        <translation>当前支付尝试</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="170"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="171"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="172"/>
        <source>Paid</source>
        <translation>支付时间</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="173"/>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="185"/>
        <source>Path through the state machine</source>
        <translation>状态机中的路径</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="191"/>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="193"/>
        <source>Callbacks</source>
        <translation>回调</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="194"/>
        <source>Payments</source>
        <translation>支付</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="195"/>
        <source>Ledger</source>
        <translation>账本</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="196"/>
        <source>Refunds due</source>
        <translation>待退款</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="197"/>
        <source>Requests</source>
        <translation>请求</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="199"/>
        <source>Purchase and logistics orders</source>
        <translation>采购单与物流单</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="201"/>
        <source>Audit rows</source>
        <translation>审计记录</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="209"/>
        <source>Callbacks as received (headers, then body)</source>
        <translation>收到的原始回调（先请求头，后正文）</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="215"/>
        <source>Exported by %1 at %2. Amounts are exact, as recorded in minor units; signatures were verified when each callback was received (unsigned or wrongly signed requests are never stored).</source>
        <translation>由 %1 于 %2 导出。金额精确，按最小货币单位记录；每个回调在接收时均已验证签名（未签名或签名错误的请求从不存储）。</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="226"/>
        <source>[%1 characters of headers not shown: they are not the name and value pairs OncePay stores, so a credential among them could not be masked]</source>
        <translation>[未显示 %1 个字符的请求头：它们不是 OncePay 存储的名称与值对，其中的凭据无法被遮盖]</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="233"/>
        <source>[redacted, %1 bytes]</source>
        <translation>[已遮盖，%1 字节]</translation>
    </message>
    <message>
        <location filename="../../models/investigation/dossier.cpp" line="240"/>
        <source>[redacted, %1 characters]</source>
        <translation>[已遮盖，%1 个字符]</translation>
    </message>
</context>
<context>
    <name>OncePay::EngineText</name>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="44"/>
        <source>not an event OncePay acts on</source>
        <translation>OncePay 不处理此类事件</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="45"/>
        <source>informational: payment still pending at %1</source>
        <translation>仅供参考：%1 上的支付仍在处理中</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="46"/>
        <source>callback names no order</source>
        <translation>回调未指明订单</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="47"/>
        <source>unknown order %1</source>
        <translation>未知订单 %1</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="48"/>
        <source>stale: %1; captured money flagged for refund</source>
        <translation>过时：%1；已收款项已标记为待退款</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="49"/>
        <source>stale: %1</source>
        <translation>过时：%1</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="50"/>
        <source>success without transaction id or amount</source>
        <translation>支付成功通知缺少交易号或金额</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="51"/>
        <source>already applied: capture %1 is recorded</source>
        <translation>已处理过：收款 %1 已有记录</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="52"/>
        <source>attempt %1 is not the current attempt of order %2 (v%3, %4)</source>
        <translation>支付尝试 %1 不是订单 %2 的当前支付尝试（版本 %3，%4）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="55"/>
        <source>success for attempt %1 while order %2 is %3 at v%4</source>
        <translation>支付尝试 %1 成功时，订单 %2 为“%3”（版本 %4）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="57"/>
        <source>currency %1 differs from the order&apos;s %2</source>
        <translation>币种 %1 与订单币种 %2 不一致</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="58"/>
        <source>amount %1 differs from the order&apos;s %2</source>
        <translation>金额 %1 与订单金额 %2 不一致</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="59"/>
        <source>confirmation refused: %1</source>
        <translation>拒绝确认：%1</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="60"/>
        <source>paid_unconfirmed at v%1: %2; waiting for a person</source>
        <translation>已付款待确认（版本 %1）：%2；等待人工处理</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="62"/>
        <source>amount and currency confirmed</source>
        <translation>金额与币种核对无误</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="63"/>
        <source>failure of attempt %1, which is not the current attempt of order %2 (v%3)</source>
        <translation>支付尝试 %1 的失败通知：该尝试不是订单 %2 的当前支付尝试（版本 %3）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="66"/>
        <source>already applied: attempt already failed</source>
        <translation>已处理过：该支付尝试已失败</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="67"/>
        <source>failure after success ignored: order %1 is %2 at v%3</source>
        <translation>成功后的失败通知已忽略：订单 %1 为“%2”（版本 %3）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="70"/>
        <source>refund of %1 arrived before its capture</source>
        <translation>%1 的退款通知早于其收款到达</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="71"/>
        <source>lease expired before the worker finished; taken over by %1</source>
        <translation>工作进程完成前租约已过期；已由 %1 接管</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="74"/>
        <source>refund of %1, not the order&apos;s current payment; %2 refund flag(s) resolved</source>
        <translation>%1 的退款不属于订单当前的付款；已了结 %2 个待退款标记</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="77"/>
        <source>already applied: order %1 already refunded</source>
        <translation>已处理过：订单 %1 已退款</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="78"/>
        <source>refund while order %1 is %2; waiting for it to be paid</source>
        <translation>订单 %1 为“%2”时收到退款通知；等待其支付完成</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="81"/>
        <source>%1 at v%2</source>
        <translation>%1（版本 %2）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="83"/>
        <source>%1 reports success</source>
        <translation>%1 通知支付成功</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="84"/>
        <source>%1 reports failure</source>
        <translation>%1 通知支付失败</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="85"/>
        <source>%1 reports refund</source>
        <translation>%1 通知已退款</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="86"/>
        <source>payment attempt on %1</source>
        <translation>通过 %1 发起支付</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="87"/>
        <source>rolled back after capture: %1</source>
        <translation>收款后回滚：%1</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="89"/>
        <source>fix #%1 (%2) proposed by %3: %4</source>
        <translation>修复 #%1（%2）由 %3 提出：%4</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="90"/>
        <source>order %1 is no longer at version %2 in state %3</source>
        <translation>订单 %1 已不是版本 %2、状态“%3”</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="92"/>
        <source>order %1 is at version %2, not %3</source>
        <translation>订单 %1 当前为版本 %2，而不是 %3</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="93"/>
        <source>order %1 has no captured payment to confirm</source>
        <translation>订单 %1 没有可确认的收款</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="94"/>
        <source>order %1: %2 → %3 is not a transition of the state machine</source>
        <translation>订单 %1：%2 → %3 不是状态机允许的状态变更</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="97"/>
        <source>order %1 does not exist</source>
        <translation>订单 %1 不存在</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="98"/>
        <source>request id %1 was already used for a different request (%2 on order %3 at version %4)</source>
        <translation>请求号 %1 已被另一请求使用（订单 %3 版本 %4 上的 %2）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="103"/>
        <source>captured money OncePay rejected (stale attempt) has settled; refund it</source>
        <translation>OncePay 已拒绝（过期支付尝试）的收款已结算，需退款</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="106"/>
        <source>%1 line for a transaction OncePay has no payment for</source>
        <translation>该交易有%1结算行，但 OncePay 中没有对应付款</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="109"/>
        <source>captured %1 UTC, no settlement line</source>
        <translation>于 %1 UTC 收款，尚无结算行</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="111"/>
        <source>captured %1 h ago, no settlement line</source>
        <translation>%1 小时前收款，尚无结算行</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="112"/>
        <source>settled again (first settlement line %1)</source>
        <translation>重复结算（首个结算行 %1）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="113"/>
        <source>settled, but order %1 is %2</source>
        <translation>已结算，但订单 %1 为“%2”</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="114"/>
        <source>settled in %1, order in %2</source>
        <translation>结算币种 %1，订单币种 %2</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="115"/>
        <source>settled %1, order %2</source>
        <translation>结算金额 %1，订单金额 %2</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="116"/>
        <source>the channel refunded %1; OncePay has no refund of this payment</source>
        <translation>渠道已退款 %1；OncePay 没有这笔付款的退款记录</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="119"/>
        <source>refunded %1 UTC, no refund line</source>
        <translation>于 %1 UTC 已退款，尚无退款结算行</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="120"/>
        <source>refunded %1 h ago, no refund line</source>
        <translation>%1 小时前已退款，尚无退款结算行</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="121"/>
        <source>refund lines return %1, OncePay refunded %2</source>
        <translation>退款结算行退回 %1，OncePay 退款 %2</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="122"/>
        <source>fee %1 instead of %2: the %3 schedule change (rate %4 ppm) explains it</source>
        <translation>手续费为 %1 而非 %2：可由费率表 #%3 的变更（费率 %4 ppm）解释</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="125"/>
        <source>fee %1 instead of %2 (%3)</source>
        <translation>手续费为 %1 而非 %2（%3）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="126"/>
        <source>period closed</source>
        <translation>账期已关闭</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="127"/>
        <source>beyond the %1 ppm tolerance</source>
        <translation>超出 %1 ppm 的容差</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="128"/>
        <source>no fee schedule change explains it</source>
        <translation>没有可解释的费率表变更</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="129"/>
        <source>the settlement line&apos;s transaction time precedes every fee schedule: judged at captured_at</source>
        <translation>结算行的交易时间早于所有费率表：按 captured_at 判定</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="133"/>
        <source>the channel&apos;s transaction time is after OncePay booked the capture: judged at captured_at</source>
        <translation>渠道交易时间晚于 OncePay 记入收款的时间：按 captured_at 判定</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="137"/>
        <source>the channel&apos;s transaction time is more than %1 h before OncePay booked the capture: not explained by a fee change</source>
        <translation>渠道交易时间比 OncePay 记入收款早 %1 小时以上：不能以费率变更解释</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="141"/>
        <source>fee %1: no fee schedule was in force at captured_at</source>
        <translation>手续费 %1：captured_at 时没有生效的费率表</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="144"/>
        <source>the settlement line has no transaction time: judged at captured_at</source>
        <translation>结算行没有交易时间：按 captured_at 判定</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="148"/>
        <source>resolved by a manual fix</source>
        <translation>已通过人工修复解决</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="150"/>
        <source>%1 proposed (%2: %3)</source>
        <translation>已提议修复“%1”（%2：%3）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="151"/>
        <source>%1 approved: %2</source>
        <translation>修复“%1”已批准：%2</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="152"/>
        <source>%1 approved</source>
        <translation>修复“%1”已批准</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="153"/>
        <source>%1 rejected: %2</source>
        <translation>修复“%1”已驳回：%2</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="154"/>
        <source>%1 rejected</source>
        <translation>修复“%1”已驳回</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="155"/>
        <source>%1 applied</source>
        <translation>修复“%1”已执行</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="156"/>
        <source>%1 failed: %2</source>
        <translation>修复“%1”执行失败：%2</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="158"/>
        <source>message %1 (%2 %3): %4 after %5 attempt(s), received %6, last change %7</source>
        <translation>消息 %1（%2 %3）：尝试 %5 次后为“%4”，接收于 %6，最后变更于 %7</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="161"/>
        <source>  last error: %1</source>
        <translation>  最近错误：%1</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="170"/>
        <source>order %1 does not exist (yet): a callback for it cannot be applied</source>
        <translation>订单 %1（尚）不存在：无法应用针对它的回调</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="188"/>
        <source>  v%1 %2 → %3 by %4 (%5 %6) %7</source>
        <translation>  版本 %1：%2 → %3，操作者 %4（%5 %6）%7</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="189"/>
        <source>  refused: %1</source>
        <translation>  被拒绝：%1</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="190"/>
        <source>period %1, bound to %2</source>
        <translation>账期 %1，绑定于 %2</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="191"/>
        <source>  %1</source>
        <translation>  %1</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="203"/>
        <source>%1 already approved fix #%2; a second approval must come from someone else</source>
        <translation>%1 已批准修复 #%2；第二次批准必须由其他人作出</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="207"/>
        <source>the change approved (%1) is not fix #%2&apos;s change (%3)</source>
        <translation>所批准的变更（%1）不是修复 #%2 的变更（%3）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="210"/>
        <source>a rejection needs a reason code (one of: %1)</source>
        <translation>驳回需要原因代码（以下之一：%1）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="211"/>
        <source>fix #%1 was not applied and is recorded as failed: %2. Propose it again against the current state.</source>
        <translation>修复 #%1 未被应用，已记录为失败：%2。请基于当前状态重新提议。</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="216"/>
        <source>a comment is required</source>
        <translation>必须填写备注</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="217"/>
        <source>a comment is longer than %1 characters</source>
        <translation>备注超过 %1 个字符</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="218"/>
        <source>the target is required</source>
        <translation>必须填写目标</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="219"/>
        <source>the target is longer than %1 characters</source>
        <translation>目标超过 %1 个字符</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="220"/>
        <source>the origin is longer than %1 characters</source>
        <translation>来源超过 %1 个字符</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="224"/>
        <source>fix #%1&apos;s amount and currency columns no longer match its change</source>
        <translation>修复 #%1 的金额和币种列与其变更不再一致</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="227"/>
        <source>this database login may not read staff accounts: staff sign in through the console&apos;s login (oncepay_console), not the engine&apos;s</source>
        <translation>此数据库登录不能读取员工账号：员工须通过控制台的登录（oncepay_console）登录，而不是引擎的登录</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="231"/>
        <source>the database server&apos;s time could not be read (it gave &apos;%1&apos;)</source>
        <translation>无法读取数据库服务器的时间（得到的是“%1”）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="235"/>
        <source>this is an audit database, not an orders database: check the orders connection profile</source>
        <translation>这是审计数据库，不是订单数据库：请检查订单连接配置</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="239"/>
        <source>this is an orders database, not an audit database: check the audit connection profile</source>
        <translation>这是订单数据库，不是审计数据库：请检查审计连接配置</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="243"/>
        <source>cannot keep the owner and group of %1 (%2:%3): %4; nothing was saved</source>
        <translation>无法保留 %1 的属主和属组（%2:%3）：%4；未保存任何内容</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="266"/>
        <source>message %1 is processing under a lease that ended %2 ms ago, within the clock-skew allowance of %3 ms (fixes.lease_skew_ms); %4 takes it once its lease is past its end by more than that</source>
        <translation>消息 %1 正在处理中，其租约已于 %2 毫秒前结束，仍在时钟偏差容许范围 %3 毫秒（fixes.lease_skew_ms）之内；须待租约结束超过该时长后方可%4</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="271"/>
        <source>message %1 is processing under a lease that ended; without a valid clock-skew allowance (fixes.lease_skew_ms) it is not judged expired</source>
        <translation>消息 %1 正在处理中，其租约已结束；由于时钟偏差容许值（fixes.lease_skew_ms）无效，不判定租约已过期</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="299"/>
        <source>%1 (%2) may not be above %3 (%4)</source>
        <translation>%1（%2）不得大于 %3（%4）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="300"/>
        <source>%1: [worker] backoff_base_ms (%2) may not be above backoff_max_ms (%3)</source>
        <translation>%1：[worker] backoff_base_ms（%2）不得大于 backoff_max_ms（%3）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="304"/>
        <source>the audit chain is broken: %1; nothing was exported (run `oncepay audit verify` or Verify chain)</source>
        <translation>审计链已损坏：%1；未导出任何内容（请运行 `oncepay audit verify` 或“校验链”）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="308"/>
        <source>row seq %1 was altered (its content does not match its hash; event %2)</source>
        <translation>序号 %1 的行被篡改（内容与其哈希不符；事件 %2）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="311"/>
        <source>row seq %1 was altered (its content does not match its hash)</source>
        <translation>序号 %1 的行被篡改（内容与其哈希不符）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="314"/>
        <source>row seq %1 is missing (next row found is seq %2)</source>
        <translation>序号 %1 的行缺失（找到的下一行是序号 %2）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="316"/>
        <source>row seq %1 is reordered or relinked (its prev_hash is not the hash of seq %2)</source>
        <translation>序号 %1 的行被重排或重新链接（其 prev_hash 不是序号 %2 的哈希）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="320"/>
        <source>cannot create %1: %2</source>
        <translation>无法创建 %1：%2</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="321"/>
        <source>checkpoint %1 (seq %2) cannot be checked: no seal public key</source>
        <translation>检查点 %1（序号 %2）无法校验：没有封印公钥</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="324"/>
        <source>checkpoint %1 (seq %2) is signed by unknown key %3 (expected %4)</source>
        <translation>检查点 %1（序号 %2）由未知密钥 %3 签名（应为 %4）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="327"/>
        <source>checkpoint %1 (seq %2) has a bad signature</source>
        <translation>检查点 %1（序号 %2）的签名无效</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="328"/>
        <source>chain truncated: checkpoint %1 seals seq %2 but the chain ends at seq %3 (rows %4..%2 are missing)</source>
        <translation>链被截断：检查点 %1 封印到序号 %2，但链止于序号 %3（序号 %4..%2 的行缺失）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="332"/>
        <source>row seq %1 is missing (the chain ends at seq %2, its head was seq %3)</source>
        <translation>序号 %1 的行缺失（链止于序号 %2，其链头为序号 %3）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="335"/>
        <source>the audit trail is empty: there is nothing to export (audited events reach it when they are shipped)</source>
        <translation>审计记录为空：没有可导出的内容（审计事件送入审计库后才会出现在审计记录中）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="340"/>
        <source>%1 has SHA-256 %2 (%3 bytes) but the manifest says %4 (%5 bytes): the file was changed</source>
        <translation>%1 的 SHA-256 为 %2（%3 字节），但清单记载为 %4（%5 字节）：文件已被改动</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="344"/>
        <source>%1 has SHA-256 %2 (%3 bytes), but its audit row (seq %4) recorded %5 (%6 bytes) when it was exported: the file was changed</source>
        <translation>%1 的 SHA-256 为 %2（%3 字节），但其审计行（序号 %4）在导出时记录的是 %5（%6 字节）：文件已被改动</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="348"/>
        <source>%1 has SHA-256 %2 (%3 bytes), but its audit event (not yet shipped) recorded %4 (%5 bytes) when it was exported: the file was changed</source>
        <translation>%1 的 SHA-256 为 %2（%3 字节），但其审计事件（尚未送入审计库）在导出时记录的是 %4（%5 字节）：文件已被改动</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="352"/>
        <source>the manifest&apos;s %1 differs from what its audit row (seq %2) recorded: the manifest was changed</source>
        <translation>清单中的%1与其审计行（序号 %2）的记录不符：清单已被改动</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="356"/>
        <source>the manifest&apos;s %1 differs from what its audit event (not yet shipped) recorded: the manifest was changed</source>
        <translation>清单中的%1与其审计事件（尚未送入审计库）的记录不符：清单已被改动</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="360"/>
        <source>file digest</source>
        <translation>文件摘要</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="361"/>
        <source>format</source>
        <translation>格式</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="362"/>
        <source>row count</source>
        <translation>行数</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="363"/>
        <source>filter</source>
        <translation>筛选条件</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="364"/>
        <source>chain head</source>
        <translation>链头</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="365"/>
        <source>author</source>
        <translation>导出人</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="366"/>
        <source>no export %1 is recorded in this audit trail: the manifest was not written by this OncePay, or its export id was changed</source>
        <translation>此审计记录中没有导出 %1 的记录：该清单不是由本 OncePay 生成的，或其导出编号已被改动</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="370"/>
        <source>export %1 is recorded more than once in the audit log (seq %2 and %3): rows were added to the trail</source>
        <translation>导出 %1 在审计日志中被记录了不止一次（序号 %2 和 %3）：有行被添加到审计记录中</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="374"/>
        <source>export %1 is recorded more than once in the outbox: rows were added to it</source>
        <translation>导出 %1 在发件箱中被记录了不止一次：有行被添加到发件箱中</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="380"/>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="381"/>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="382"/>
        <source>export: cannot write the file: %1</source>
        <translation>导出：无法写入文件：%1</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="383"/>
        <source>export: the file was abandoned; it holds part of the export at most</source>
        <translation>导出：文件已被放弃；其中至多只有部分导出内容</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="386"/>
        <source>export: OpenSSL gives no SHA-256; nothing was exported</source>
        <translation>导出：OpenSSL 未提供 SHA-256；未导出任何内容</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="389"/>
        <source>audit verify: OpenSSL gives no SHA-256; nothing was checked</source>
        <translation>审计校验：OpenSSL 未提供 SHA-256；未检查任何内容</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="392"/>
        <source>the export&apos;s audit row (seq %1) does not match its hash: it was altered</source>
        <translation>该导出的审计行（序号 %1）与其哈希不符：已被篡改</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="395"/>
        <source>the export&apos;s audit row (seq %1) is not where the export wrote it (after seq %2, linked into the chain): it was inserted or moved</source>
        <translation>该导出的审计行（序号 %1）不在导出时写入的位置（应在序号 %2 之后并链接入链）：已被插入或移动</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="399"/>
        <source>row %1 of the file (the audit log&apos;s seq %2) differs in %3: the file says “%4”, the audit log “%5”</source>
        <translation>文件第 %1 行（审计日志序号 %2）的 %3 不同：文件为“%4”，审计日志为“%5”</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="403"/>
        <source>row %1 of the file (the audit log&apos;s seq %2) differs from the audit log&apos;s row</source>
        <translation>文件第 %1 行（审计日志序号 %2）与审计日志中的行不同</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="407"/>
        <source>the file goes on after the %1 row(s) the audit log holds for its filter, from line %2: rows were added</source>
        <translation>文件在审计日志中该筛选条件对应的 %1 行之后仍有内容（自第 %2 行起）：有行被添加</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="411"/>
        <source>the file ends before the audit log&apos;s row seq %1 (row %2 of %3): rows were removed</source>
        <translation>文件在审计日志序号 %1 的行（共 %3 行中的第 %2 行）之前就结束了：有行被删除</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="415"/>
        <source>the file&apos;s header line is not the one an OncePay CSV export has</source>
        <translation>文件的表头行不是 OncePay CSV 导出文件的表头</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="418"/>
        <source>row seq %1 in the file does not match its hash: it was altered</source>
        <translation>文件中序号 %1 的行与其哈希不符：已被篡改</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="421"/>
        <source>row seq %1 in the file shows the amount %2 %3, but its hashed content says %4 %5</source>
        <translation>文件中序号 %1 的行显示金额 %2 %3，但其计入哈希的内容为 %4 %5</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="425"/>
        <source>row seq %1 in the file is not linked to seq %2 before it: reordered or relinked</source>
        <translation>文件中序号 %1 的行未链接到其前面的序号 %2：顺序被调换或链接被改动</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="429"/>
        <source>the file holds %1 row(s), the manifest says %2</source>
        <translation>文件包含 %1 行，清单记载为 %2 行</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="431"/>
        <source>the chain head seq %1 is no longer in the audit log</source>
        <translation>链头序号 %1 已不在审计日志中</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="434"/>
        <source>the audit log&apos;s row seq %1 has hash %2, not the manifest&apos;s %3</source>
        <translation>审计日志中序号 %1 的行哈希为 %2，而非清单记载的 %3</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="437"/>
        <source>seal %1 (seq %2) named by the manifest is missing or changed in the audit database</source>
        <translation>清单所指的封印 %1（序号 %2）在审计库中缺失或已被改动</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="441"/>
        <source>%1 is no OncePay JSON export (%2)</source>
        <translation>%1 不是 OncePay JSON 导出文件（%2）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="442"/>
        <source>%1 cannot be read: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="443"/>
        <source>the rows cannot be re-hashed: OpenSSL gives no SHA-256</source>
        <translation>无法重新计算各行哈希：OpenSSL 未提供 SHA-256</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="446"/>
        <source>not an OncePay audit export manifest (format &apos;%1&apos;)</source>
        <translation>不是 OncePay 审计导出清单（格式为“%1”）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="448"/>
        <source>the manifest lacks the file, its SHA-256 or the head</source>
        <translation>清单缺少文件名、其 SHA-256 或链头</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="379"/>
        <source>cannot read manifest %1: %2</source>
        <translation>无法读取清单 %1：%2</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="451"/>
        <source>manifest %1 is not a JSON object: %2</source>
        <translation>清单 %1 不是 JSON 对象：%2</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="453"/>
        <source>a display name may not contain control characters (such as a line break or a tab)</source>
        <translation>显示名称不得包含控制字符（如换行符或制表符）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="457"/>
        <source>a display name is at most %1 characters (this one has %2)</source>
        <translation>显示名称最多 %1 个字符（当前为 %2 个）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="460"/>
        <source>unknown role: a role is agent, finance, auditor or admin</source>
        <translation>未知角色：角色须为 agent（客服）、finance（财务）、auditor（审计）或 admin（管理员）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="463"/>
        <source>there is no staff account by that name</source>
        <translation>没有该名称的员工账户</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="464"/>
        <source>there is no staff account %1</source>
        <translation>没有员工账户 %1</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="465"/>
        <source>an administrator may not change their own role</source>
        <translation>管理员不能更改自己的角色</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="467"/>
        <source>%1 already has the role %2</source>
        <translation>%1 已是%2角色</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="468"/>
        <source>%1 is the last enabled administrator and keeps the role</source>
        <translation>%1 是最后一位启用的管理员，保留其角色</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="471"/>
        <source>the staff account %1 was not changed</source>
        <translation>员工账户 %1 未更改</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="472"/>
        <source>a user name is 2–64 of a-z, 0-9, &apos;.&apos;, &apos;_&apos;, &apos;-&apos;, starting with a letter or digit</source>
        <translation>用户名为 2–64 个字符，只能包含 a-z、0-9、&apos;.&apos;、&apos;_&apos;、&apos;-&apos;，并以字母或数字开头</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="476"/>
        <source>a staff account %1 already exists</source>
        <translation>员工账号 %1 已存在</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="477"/>
        <source>a password needs at least %1 characters</source>
        <translation>密码至少需要 %1 个字符</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="478"/>
        <source>the password is too long</source>
        <translation>密码过长</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="479"/>
        <source>a reason is required</source>
        <translation>必须填写原因</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="480"/>
        <source>an administrator may not disable their own account</source>
        <translation>管理员不能停用自己的账户</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="482"/>
        <source>%1 is disabled already</source>
        <translation>%1 已是停用状态</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="483"/>
        <source>%1 is enabled already</source>
        <translation>%1 已是启用状态</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="484"/>
        <source>%1 is the last enabled administrator and stays enabled</source>
        <translation>%1 是最后一位启用的管理员，不能停用</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="488"/>
        <source>%1 (%2) may not start a reconciliation run</source>
        <translation>%1（%2）无权启动对账运行</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="489"/>
        <source>%1 (%2) may not %3: %4</source>
        <translation>%1（%2）无权%3：%4</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="490"/>
        <source>%1 (%2) may not %3</source>
        <translation>%1（%2）无权%3</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="491"/>
        <source>there is no such staff account</source>
        <translation>不存在该员工账户</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="492"/>
        <source>the staff account has been disabled</source>
        <translation>该员工账户已被停用</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="493"/>
        <source>the staff account&apos;s role is now %1</source>
        <translation>该员工账户的角色现为%1</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="495"/>
        <source>the period ends before it starts</source>
        <translation>期间的结束早于开始</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="496"/>
        <source>ops setting %1 is not a non-negative number</source>
        <translation>运营设置 %1 不是非负数</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="499"/>
        <source>%1 takes a whole number from %2 to %3, not &apos;%4&apos;</source>
        <translation>%1 须为 %2 至 %3 之间的整数，而不是“%4”</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="501"/>
        <source>a settings change needs a reason</source>
        <translation>更改设置须填写原因</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="502"/>
        <source>unknown setting &apos;%1&apos;</source>
        <translation>未知设置“%1”</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="510"/>
        <source>ops setting %1 is not a whole number from %2 to %3: &apos;%4&apos;</source>
        <translation>运营设置 %1 不是 %2 到 %3 之间的整数：“%4”</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="505"/>
        <source>ops setting %1 is not a whole number from 0 to %2: &apos;%3&apos;</source>
        <translation>运营设置 %1 不是 0 到 %2 之间的整数：“%3”</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="515"/>
        <source>%1: t=&lt;unix seconds&gt;,v1=&lt;hex HMAC-SHA256 of &quot;t.body&quot; under a webhook signing secret&gt;; timestamp within the tolerance window</source>
        <translation>%1：t=&lt;Unix 秒&gt;,v1=&lt;用 webhook 签名密钥对 &quot;t.body&quot; 计算的十六进制 HMAC-SHA256&gt;；时间戳须在容差窗口内</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="519"/>
        <source>%1: t=&lt;unix seconds&gt;,s=&lt;hex HMAC-SHA256 of &quot;t.body&quot; under a webhook secret&gt;; timestamp within the tolerance window</source>
        <translation>%1：t=&lt;Unix 秒&gt;,s=&lt;用 webhook 密钥对 &quot;t.body&quot; 计算的十六进制 HMAC-SHA256&gt;；时间戳须在容差窗口内</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="523"/>
        <source>%1: v1,&lt;base64 HMAC-SHA256 of &quot;%2.%3.body&quot; under the relay&apos;s secret&gt; (Standard Webhooks); timestamp within the tolerance window</source>
        <translation>%1：v1,&lt;用中继密钥对 &quot;%2.%3.body&quot; 计算的 base64 HMAC-SHA256&gt;（Standard Webhooks）；时间戳须在容差窗口内</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="527"/>
        <source>%1: base64 RSA-SHA256 (%2 SHA256withRSA) of &quot;%3|%4|webhook id|CRC32 of the body&quot;, verified with the configured PayPal certificate (cert_file, never fetched; %5 must be on paypal.com); transmission time within the tolerance window</source>
        <translation>%1：对 &quot;%3|%4|webhook id|消息体 CRC32&quot; 的 base64 RSA-SHA256（%2 SHA256withRSA），用配置的 PayPal 证书验证（cert_file，从不在线获取；%5 必须位于 paypal.com）；传输时间须在容差窗口内</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="534"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="537"/>
        <source>%1 is not a whole number</source>
        <translation>%1 不是整数</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="538"/>
        <source>%1 is not a number</source>
        <translation>%1 不是数字</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="539"/>
        <source>%1 is negative</source>
        <translation>%1 为负数</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="540"/>
        <source>%1 overflows 64 bits</source>
        <translation>%1 超出 64 位整数范围</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="541"/>
        <source>%1 is not a decimal string</source>
        <translation>%1 不是十进制数字字符串</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="542"/>
        <source>%1 &apos;%2&apos; is not a plain decimal</source>
        <translation>%1 “%2”不是普通的十进制数</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="543"/>
        <source>unknown currency &apos;%1&apos;</source>
        <translation>未知货币“%1”</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="544"/>
        <source>no &apos;%1&apos; signature matches</source>
        <translation>没有匹配的“%1”签名</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="545"/>
        <source>no v1 signature matches</source>
        <translation>没有匹配的 v1 签名</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="546"/>
        <source>signature does not verify with the configured certificate</source>
        <translation>签名无法用所配置的证书验证</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="549"/>
        <source>signature header has no &apos;%1&apos; signature</source>
        <translation>签名头中没有“%1”签名</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="550"/>
        <source>signature header is empty</source>
        <translation>签名头为空</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="551"/>
        <source>signature header is malformed</source>
        <translation>签名头格式错误</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="552"/>
        <source>signature header has a bad timestamp</source>
        <translation>签名头的时间戳无效</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="553"/>
        <source>signature header has no timestamp</source>
        <translation>签名头缺少时间戳</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="554"/>
        <source>signature timestamp is %1 s behind, outside the allowed window</source>
        <translation>签名时间戳落后 %1 秒，超出允许窗口</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="557"/>
        <source>signature timestamp is %1 s ahead, outside the allowed window</source>
        <translation>签名时间戳超前 %1 秒，超出允许窗口</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="560"/>
        <source>no webhook secret configured</source>
        <translation>未配置 webhook 密钥</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="561"/>
        <source>no %1 header</source>
        <translation>缺少 %1 头</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="562"/>
        <source>several %1 headers</source>
        <translation>存在多个 %1 头</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetext.cpp" line="126"/>
        <source>read orders</source>
        <translation>查看订单</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetext.cpp" line="127"/>
        <source>propose a fix</source>
        <translation>提议修复</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetext.cpp" line="128"/>
        <source>approve or reject a fix</source>
        <translation>批准或驳回修复</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetext.cpp" line="129"/>
        <source>read the audit trail</source>
        <translation>查看审计轨迹</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetext.cpp" line="130"/>
        <source>manage staff accounts</source>
        <translation>管理员工账户</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetext.cpp" line="131"/>
        <source>manage settings</source>
        <translation>管理设置</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="193"/>
        <source>%1 already has an open proposal (#%2); decide that one first</source>
        <translation>%1 已有一个待审批的修复提议（#%2）；请先处理那一个</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="162"/>
        <source>discrepancy #%1 %2 on %3 %4, %5: expected %6, actual %7</source>
        <translation>异常 #%1 %2，%3 %4，%5：应为 %6，实际 %7</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="165"/>
        <source>  settlement line #%1 (%2): gross %3, fee %4, net %5, settled %6</source>
        <translation>  结算行 #%1（%2）：总额 %3，手续费 %4，净额 %5，结算于 %6</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="168"/>
        <source>  payment of order %1: %2, %3, captured %4</source>
        <translation>  订单 %1 的付款：%2，%3，收款于 %4</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="173"/>
        <source>order %1: %2 at version %3, %4</source>
        <translation>订单 %1：%2，版本 %3，%4</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="174"/>
        <source>  state reason: %1</source>
        <translation>  状态原因：%1</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="176"/>
        <source>  payment %1 %2: %3, %4, captured %5</source>
        <translation>  付款 %1 %2：%3，%4，收款于 %5</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="177"/>
        <source>  nothing captured against the order&apos;s %1</source>
        <translation>  订单金额 %1，尚无任何收款</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="178"/>
        <source>  captured %1 in total, the order is %2 (another currency: no difference computed)</source>
        <translation>  共收款 %1，订单金额为 %2（币种不同：不计算差额）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="181"/>
        <source>  captured %1 in total: %2 less than the order&apos;s %3</source>
        <translation>  共收款 %1：比订单金额 %3 少 %2</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="184"/>
        <source>  captured %1 in total: %2 more than the order&apos;s %3</source>
        <translation>  共收款 %1：比订单金额 %3 多 %2</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="187"/>
        <source>  captured %1 in total: the order&apos;s amount</source>
        <translation>  共收款 %1：与订单金额一致</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="196"/>
        <source>%1 got an open proposal at the same moment; decide that one first</source>
        <translation>%1 同时收到了另一个修复提议；请先处理那一个</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="199"/>
        <source>fix #%1 was decided meanwhile</source>
        <translation>修复 #%1 已在此期间被处理</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="200"/>
        <source>fix #%1 is %2; only an open proposal is decided</source>
        <translation>修复 #%1 为“%2”；只有等待审批的提议才能决定</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="202"/>
        <source>%1 proposed fix #%2 and may not decide it</source>
        <translation>%1 提议了修复 #%2，不能由本人审批</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="221"/>
        <source>fix #%1&apos;s stored change no longer matches its digest</source>
        <translation>修复 #%1 存储的变更与其摘要不再一致</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="246"/>
        <source>order %1 is %2; %3 takes paid_unconfirmed orders</source>
        <translation>订单 %1 为“%2”；“%3”只适用于已付款待确认的订单</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="248"/>
        <source>order %1 is %2; %3 takes paid_unconfirmed or payment_failed orders</source>
        <translation>订单 %1 为“%2”；“%3”只适用于已付款待确认或支付失败的订单</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="251"/>
        <source>message %1 is %2; %3 takes dead or failed messages and expired leases</source>
        <translation>消息 %1 为“%2”；“%3”只适用于死信、处理失败的消息和租约已过期的消息</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="254"/>
        <source>message %1 is %2 under a live lease; %3 takes dead or failed messages and expired leases</source>
        <translation>消息 %1 为“%2”且租约仍有效；“%3”只适用于死信、处理失败的消息和租约已过期的消息</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="258"/>
        <source>message %1 is %2; %3 takes dead or failed messages, pending ones and expired leases</source>
        <translation>消息 %1 为“%2”；“%3”只适用于死信、处理失败或待处理的消息和租约已过期的消息</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="262"/>
        <source>message %1 is %2 under a live lease; %3 takes dead or failed messages, pending ones and expired leases</source>
        <translation>消息 %1 为“%2”且租约仍有效；“%3”只适用于死信、处理失败或待处理的消息和租约已过期的消息</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="275"/>
        <source>discrepancy #%1 is %2, not open</source>
        <translation>异常 #%1 为“%2”，不是未结状态</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="276"/>
        <source>discrepancy #%1 is a %2; adjust_fee takes fee mismatches</source>
        <translation>异常 #%1 是“%2”；调整手续费只适用于手续费不符</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="279"/>
        <source>discrepancy #%1 has no order to book a fee adjustment on</source>
        <translation>异常 #%1 没有可记入手续费调整的订单</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="282"/>
        <source>discrepancy #%1 carries no amounts; give the amount to book</source>
        <translation>异常 #%1 没有金额；请给出要记账的金额</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="285"/>
        <source>%1 discrepancies of the period are still open; decide them first</source>
        <translation>该账期还有 %1 个未结异常；请先处理它们</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="288"/>
        <source>no finished reconciliation run covers the period; reconcile it first</source>
        <translation>没有已完成的对账运行覆盖该账期；请先对账</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="291"/>
        <source>the period overlaps a period that is already closed</source>
        <translation>该账期与已关闭的账期重叠</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="294"/>
        <source>no discrepancy #%1</source>
        <translation>没有异常 #%1</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="295"/>
        <source>no message with callback id &apos;%1&apos;</source>
        <translation>没有回调号为“%1”的消息</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="296"/>
        <source>no order &apos;%1&apos;</source>
        <translation>没有订单“%1”</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplates.cpp" line="297"/>
        <source>a fix of amount 0 changes nothing</source>
        <translation>金额为 0 的修复不会改变任何东西</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="19"/>
        <source>partial refund of %1 booked; %2 of %3 refunded, order %4 stays %5</source>
        <translation>已记入部分退款 %1；已退 %2（共 %3），订单 %4 保持%5</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="22"/>
        <source>refunded at v%1: %2 of %3 refunded</source>
        <translation>已退款（v%1）：已退 %2（共 %3）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="23"/>
        <source>already applied: %1 of payment %2 is refunded; this report&apos;s total is %3</source>
        <translation>已生效：支付 %2 已退 %1；本次报告的累计为 %3</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="26"/>
        <source>already applied: refund %1 is booked</source>
        <translation>已生效：退款 %1 已记账</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="27"/>
        <source>refund of %1 of payment %2: nothing to book</source>
        <translation>支付 %2 的退款 %1：无需记账</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="28"/>
        <source>refund of %1 in %2, but payment %3 was captured in %4; not booked</source>
        <translation>退款 %1 的币种为 %2，但支付 %3 以 %4 收款；未记账</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="31"/>
        <source>refund of %1 would bring payment %2&apos;s refunds to %3, more than the %4 captured; not booked</source>
        <translation>退款 %1 将使支付 %2 的退款合计达到 %3，超过收款 %4；未记账</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="35"/>
        <source>refund of %1 of payment %2 (%3 captured) while order %4 is paid_unconfirmed; not booked</source>
        <translation>支付 %2（收款 %3）的退款 %1 到达时订单 %4 处于“已付款待确认”；未记账</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="39"/>
        <source>held for a person: %1</source>
        <translation>留待人工处理：%1</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="40"/>
        <source>refunded before confirmation: order %1 back to pending_payment at v%2</source>
        <translation>确认前已退款：订单 %1 回到待支付（v%2）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="43"/>
        <source>stale: %1; captured money already flagged for refund</source>
        <translation>过时：%1；该笔收款已标记为待退款</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="46"/>
        <source>%1 refunded %2 before the payment was confirmed</source>
        <translation>%1 在支付确认前退款 %2</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="48"/>
        <source>unknown channel &apos;%1&apos;; OncePay&apos;s channels are: %2</source>
        <translation>未知渠道“%1”；OncePay 的渠道为：%2</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="50"/>
        <source>payment %1 was refunded by %2</source>
        <translation>支付 %1 已由 %2 退款</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="51"/>
        <source>%1 reported a refund of payment %2 (callback %3) not yet processed</source>
        <translation>%1 报告了支付 %2 的退款（回调 %3），尚未处理</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="54"/>
        <source>order %1 cannot be confirmed: %2</source>
        <translation>订单 %1 无法确认：%2</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="58"/>
        <source>%1 is not a whole number of %2: Stripe counts this currency in hundredths, always ending in 00</source>
        <translation>%1 不是 %2 的整数：Stripe 以百分之一计这种货币，末两位总是 00</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="63"/>
        <source>another %1 statement import is still being stored after %2 s; try again when it has finished</source>
        <translation>另一个 %1 对账单导入在 %2 秒后仍在保存；请在其完成后重试</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="68"/>
        <source>%1 is no longer a finance reviewer: its approval no longer counts</source>
        <translation>%1 已不再是财务审核人：其批准不再计数</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="73"/>
        <source>%1 is not a payment result; the capture&apos;s own event decides</source>
        <translation>%1 不是支付结果；以收款本身的事件为准</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="76"/>
        <source>%1 is %2 characters long; the message table stores at most %3</source>
        <translation>%1 长 %2 个字符；消息表最多存储 %3 个</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="79"/>
        <source>%1 is %2 bytes long; the message table stores at most %3</source>
        <translation>%1 长 %2 字节；消息表最多存储 %3 字节</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="82"/>
        <source>%1 contains a NUL character, which the message table cannot store</source>
        <translation>%1 含有 NUL 字符，消息表无法存储</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="85"/>
        <source>approval reversal without order_id</source>
        <translation>撤销授权事件缺少 order_id</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="87"/>
        <source>discrepancy #%1 differs by %2; %3 books that whole difference, not %4</source>
        <translation>差异 #%1 相差 %2；%3 须记入全部差额，而不是 %4</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="90"/>
        <source>discrepancy #%1 has amounts in two currencies (expected in %2, settled in %3); give the amount to book and its currency</source>
        <translation>差异 #%1 涉及两种币种（应收为 %2，结算为 %3）；请给出要记账的金额及其币种</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="94"/>
        <source>a fix of discrepancy #%1 books %2 or %3, not %4</source>
        <translation>差异 #%1 的修正只能以 %2 或 %3 记账，不能用 %4</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="96"/>
        <source>a fix of discrepancy #%1 books %2, not %3</source>
        <translation>差异 #%1 的修正以 %2 记账，不能用 %3</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="97"/>
        <source>discrepancy #%1 involves %2; a fix of %3 is more than that</source>
        <translation>差异 #%1 涉及 %2；%3 的修正超出该金额</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="100"/>
        <source>discrepancy #%1 reverses a write-off that is no longer recorded; reconcile again</source>
        <translation>差异 #%1 要冲回的核销已不存在；请重新对账</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="104"/>
        <source>fix #%1 on discrepancy #%2 (%3): reverses the write-off of discrepancy #%4</source>
        <translation>修正 #%1，针对差异 #%2（%3）：冲回差异 #%4 的核销</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="110"/>
        <source>the seal recorded in the orders database (seq %1) cannot be checked: no seal public key</source>
        <translation>订单库中记录的封存（seq %1）无法校验：没有封存公钥</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="114"/>
        <source>the seal recorded in the orders database (seq %1) is signed by unknown key %2 (expected %3)</source>
        <translation>订单库中记录的封存（seq %1）由未知密钥 %2 签名（应为 %3）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="118"/>
        <source>the seal recorded in the orders database (seq %1) has a bad signature</source>
        <translation>订单库中记录的封存（seq %1）签名无效</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="121"/>
        <source>row seq %1 differs from the head sealed by the seal recorded in the orders database</source>
        <translation>seq %1 行与订单库中记录的封存所封的链头不一致</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="125"/>
        <source>chain truncated: the seal recorded in the orders database seals seq %1 but the chain ends at seq %2 (rows %3..%1 are missing)</source>
        <translation>审计链被截断：订单库中记录的封存封至 seq %1，但链止于 seq %2（缺少 %3..%1 行）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="129"/>
        <source>chain truncated: %1 event(s) shipped to the audit database are not in the chain, which ends at seq %2 (the first: event %3, %4)</source>
        <translation>审计链被截断：已送入审计库的 %1 个事件不在链中，链止于 seq %2（第一个：事件 %3，%4）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="133"/>
        <source>the seal recorded in the orders database (outbox id %1) cannot be read</source>
        <translation>无法读取订单库中记录的封存（发件箱 id %1）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="136"/>
        <source>%1 audited event(s) shipped to the audit database are not in the audit log (the first: event %2, %3): rows were cut off the chain</source>
        <translation>已送入审计库的 %1 个审计事件不在审计日志中（第一个：事件 %2，%3）：有行被从链上截去</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="140"/>
        <source>the seal recorded in the orders database seals seq %1 but the audit log has no such row</source>
        <translation>订单库中记录的封存封至 seq %1，但审计日志中没有该行</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="145"/>
        <source>settled %1, order %2: different currencies, no difference computed</source>
        <translation>结算 %1，订单 %2：币种不同，不计算差额</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="148"/>
        <source>settled %1 (charge %2, adjustments %3), order %4</source>
        <translation>结算 %1（收款 %2，调整 %3），订单 %4</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="150"/>
        <source>refund lines return %1, OncePay refunded %2: different currencies, no difference computed</source>
        <translation>退款明细退回 %1，OncePay 退款 %2：币种不同，不计算差额</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="154"/>
        <source>the channel took back %1 (fee %2) for a dispute on this payment of %3</source>
        <translation>渠道因争议从这笔 %3 的支付中扣回 %1（手续费 %2）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="157"/>
        <source>the channel returned %1 (fee %2) for a dispute on this payment of %3</source>
        <translation>渠道因争议就这笔 %3 的支付退还 %1（手续费 %2）</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="160"/>
        <source>the channel took back %1 (fee %2) for a dispute on a transaction OncePay has no payment for</source>
        <translation>渠道因争议扣回 %1（手续费 %2），OncePay 无该交易的支付记录</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="164"/>
        <source>the channel returned %1 (fee %2) for a dispute on a transaction OncePay has no payment for</source>
        <translation>渠道因争议退还 %1（手续费 %2），OncePay 无该交易的支付记录</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="168"/>
        <source>%1 line of %2 (fee %3) on this payment of %4: reconciliation does not match such lines, review it</source>
        <translation>这笔 %4 的支付有 %2 的%1明细（手续费 %3）：对账不匹配此类明细，请人工核查</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="172"/>
        <source>%1 line of %2 (fee %3) for a transaction OncePay has no payment for: reconciliation does not match such lines, review it</source>
        <translation>%2 的%1明细（手续费 %3），OncePay 无该交易的支付记录：对账不匹配此类明细，请人工核查</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="176"/>
        <source>written off %1 (discrepancy #%2), but the channel has settled it since (settlement line %3): reverse the write-off</source>
        <translation>已核销 %1（差异 #%2），但渠道此后已结算（结算明细 %3）：请冲回核销</translation>
    </message>
    <message>
        <location filename="../../models/common/enginetexttemplatesmoney.cpp" line="180"/>
        <source>written off %1 (discrepancy #%2), but the channel has settled it since: reverse the write-off</source>
        <translation>已核销 %1（差异 #%2），但渠道此后已结算：请冲回核销</translation>
    </message>
</context>
<context>
    <name>OncePay::EntityKinds</name>
    <message>
        <location filename="../../models/common/labels.cpp" line="277"/>
        <source>order</source>
        <translation>订单</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="278"/>
        <source>callback</source>
        <translation>回调</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="279"/>
        <source>staff account</source>
        <translation>员工账号</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="280"/>
        <source>settlement statement</source>
        <translation>结算单</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="281"/>
        <source>fee schedule</source>
        <translation>费率表</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="282"/>
        <source>discrepancy</source>
        <translation>对账异常</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="283"/>
        <source>reconciliation run</source>
        <translation>对账运行</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="284"/>
        <location filename="../../models/common/labels.cpp" line="285"/>
        <source>audit trail</source>
        <translation>审计轨迹</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="286"/>
        <source>export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="287"/>
        <source>fix</source>
        <translation>修复</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="288"/>
        <source>setting</source>
        <translation>运营参数</translation>
    </message>
</context>
<context>
    <name>OncePay::ErrorText</name>
    <message>
        <location filename="../../views/common/errortext.h" line="21"/>
        <source>The database refused this console&apos;s login: it may not do this. Fix decisions, accounts and settings are made from a console whose connection profile uses the finance login (oncepay_console); if this is one, the database&apos;s grants need applying.</source>
        <translation>数据库拒绝了此控制台的登录执行此操作：它无权这样做。修复决定、账户和设置须在连接配置使用财务登录（oncepay_console）的控制台上进行；如果这正是这样的控制台，则需要应用数据库授权脚本。</translation>
    </message>
    <message>
        <location filename="../../views/common/errortext.h" line="34"/>
        <source>Database file not found: %1. Check the connection profile, or put the file back.</source>
        <translation>找不到数据库文件：%1。请检查连接配置，或把文件放回原处。</translation>
    </message>
    <message>
        <location filename="../../views/common/errortext.h" line="39"/>
        <source>The database server refused the login. Check the user, its password and the database name in the connection profile.</source>
        <translation>数据库服务器拒绝了登录。请检查连接配置中的用户名、密码和数据库名。</translation>
    </message>
    <message>
        <location filename="../../views/common/errortext.h" line="43"/>
        <source>The database cannot be reached. It will be tried again on the next refresh.</source>
        <translation>无法连接数据库。下次刷新时将重试。</translation>
    </message>
    <message>
        <location filename="../../views/common/errortext.h" line="47"/>
        <source>The database was created by a newer OncePay. Upgrade this console before using it.</source>
        <translation>该数据库由更新版本的 OncePay 创建。请先升级本控制台。</translation>
    </message>
    <message>
        <location filename="../../views/common/errortext.h" line="53"/>
        <source>Your role may not see this.</source>
        <translation>您的角色无权查看此内容。</translation>
    </message>
    <message>
        <location filename="../../views/common/errortext.h" line="55"/>
        <source>Nothing was found.</source>
        <translation>未找到任何内容。</translation>
    </message>
    <message>
        <location filename="../../views/common/errortext.h" line="58"/>
        <source>The database has an older schema; run `oncepay db migrate`.</source>
        <translation>数据库结构版本较旧，请运行 `oncepay db migrate`。</translation>
    </message>
    <message>
        <location filename="../../views/common/errortext.h" line="62"/>
        <source>This is not the database this profile is for: %1.</source>
        <translation>这不是此连接配置所指的数据库：%1。</translation>
    </message>
    <message>
        <location filename="../../views/common/errortext.h" line="66"/>
        <source>Type an order, customer, transaction, callback or request id.</source>
        <translation>请输入订单号、客户编号、交易号、回调编号或请求编号。</translation>
    </message>
    <message>
        <location filename="../../views/common/errortext.h" line="70"/>
        <source>That is longer than any identifier.</source>
        <translation>输入内容超过了任何编号的长度。</translation>
    </message>
    <message>
        <location filename="../../views/common/errortext.h" line="75"/>
        <location filename="../../views/common/errortext.h" line="105"/>
        <source>The request was refused: %1</source>
        <translation>请求被拒绝：%1</translation>
    </message>
    <message>
        <location filename="../../views/common/errortext.h" line="78"/>
        <source>Something went wrong: %1</source>
        <translation>出现错误：%1</translation>
    </message>
</context>
<context>
    <name>OncePay::FixLabels</name>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="57"/>
        <source>Channel outage</source>
        <translation>渠道故障</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="58"/>
        <source>Message cannot be processed</source>
        <translation>消息无法处理</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="59"/>
        <source>Duplicate already handled</source>
        <translation>重复已处理</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="60"/>
        <source>Customer dispute</source>
        <translation>客户争议</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="62"/>
        <source>Payment verified with the channel</source>
        <translation>已向渠道核实付款</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="63"/>
        <source>Payment not received</source>
        <translation>未收到付款</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="64"/>
        <source>Settlement correction</source>
        <translation>结算更正</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="65"/>
        <source>Fee schedule change</source>
        <translation>费率变更</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="66"/>
        <source>Immaterial difference</source>
        <translation>差额不重要</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="67"/>
        <source>Period end</source>
        <translation>期末</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="68"/>
        <location filename="../../models/fixes/fixlabels.cpp" line="84"/>
        <source>Other (see comment)</source>
        <translation>其他（见备注）</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="78"/>
        <source>Insufficient evidence</source>
        <translation>证据不足</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="79"/>
        <source>Wrong target</source>
        <translation>对象错误</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="80"/>
        <source>Wrong amount</source>
        <translation>金额错误</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="81"/>
        <source>Against policy</source>
        <translation>违反政策</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="83"/>
        <source>Needs more investigation</source>
        <translation>需要进一步调查</translation>
    </message>
</context>
<context>
    <name>OncePay::FixModel</name>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="58"/>
        <source>#</source>
        <translation>编号</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="65"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="67"/>
        <source>Target</source>
        <translation>对象</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="68"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="73"/>
        <source>Approvals</source>
        <translation>批准数</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="76"/>
        <source>Proposed by</source>
        <translation>提议人</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="77"/>
        <source>Age</source>
        <translation>时长</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="85"/>
        <source>proposed %1</source>
        <translation>提议于 %1</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="90"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="103"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
</context>
<context>
    <name>OncePay::FulfilmentModel</name>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="346"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="347"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="348"/>
        <source>purchase order</source>
        <translation>采购单</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="348"/>
        <source>logistics order</source>
        <translation>物流单</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="350"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="352"/>
        <source>Callback</source>
        <translation>回调</translation>
    </message>
</context>
<context>
    <name>OncePay::IdempotencyModel</name>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="304"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="305"/>
        <source>Request</source>
        <translation>请求</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="306"/>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="308"/>
        <source>Expected version</source>
        <translation>预期版本</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="310"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="317"/>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
</context>
<context>
    <name>OncePay::Labels</name>
    <message>
        <location filename="../../models/common/labels.cpp" line="16"/>
        <source>pending payment</source>
        <translation>待支付</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="18"/>
        <source>paying</source>
        <translation>支付中</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="20"/>
        <source>paid, unconfirmed</source>
        <translation>已付款待确认</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="22"/>
        <source>paid</source>
        <translation>已支付</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="24"/>
        <source>payment failed</source>
        <translation>支付失败</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="26"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="28"/>
        <location filename="../../models/common/labels.cpp" line="152"/>
        <source>refunded</source>
        <translation>已退款</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="35"/>
        <location filename="../../models/common/labels.cpp" line="127"/>
        <source>pending</source>
        <translation>待处理</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="37"/>
        <source>processing</source>
        <translation>处理中</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="39"/>
        <source>completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="41"/>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="43"/>
        <source>failed, will retry</source>
        <translation>失败，将重试</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="45"/>
        <source>dead letter</source>
        <translation>死信</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="53"/>
        <source>Message waiting</source>
        <translation>消息等待处理</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="55"/>
        <source>Message stalled</source>
        <translation>消息处理超时</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="58"/>
        <source>Expired lease</source>
        <translation>租约已过期</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="60"/>
        <source>Dead letter</source>
        <translation>死信</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="62"/>
        <source>Unfinished request</source>
        <translation>未完成的请求</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="64"/>
        <location filename="../../models/fixes/fixlabels.cpp" line="108"/>
        <source>Refund due</source>
        <translation>待退款</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="66"/>
        <source>Order in flight</source>
        <translation>订单停滞在途</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="82"/>
        <source>order id</source>
        <translation>订单号</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="84"/>
        <source>customer reference</source>
        <translation>客户编号</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="86"/>
        <source>channel transaction</source>
        <translation>渠道交易号</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="88"/>
        <source>callback id</source>
        <translation>回调编号</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="89"/>
        <source>request id</source>
        <translation>请求编号</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="91"/>
        <source>callback for an unknown order</source>
        <translation>指向未知订单的回调</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="99"/>
        <location filename="../../models/common/labels.cpp" line="260"/>
        <source>agent</source>
        <translation>客服</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="100"/>
        <location filename="../../models/common/labels.cpp" line="262"/>
        <source>finance</source>
        <translation>财务</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="101"/>
        <location filename="../../models/common/labels.cpp" line="264"/>
        <source>auditor</source>
        <translation>审计</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="102"/>
        <location filename="../../models/common/labels.cpp" line="266"/>
        <source>administrator</source>
        <translation>管理员</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="110"/>
        <source>request</source>
        <translation>请求</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="112"/>
        <source>callback</source>
        <translation>回调</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="114"/>
        <source>fix</source>
        <translation>修复</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="116"/>
        <source>timer</source>
        <translation>定时器</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="118"/>
        <location filename="../../models/common/labels.cpp" line="256"/>
        <source>system</source>
        <translation>系统</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="120"/>
        <source>audit row</source>
        <translation>审计记录</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="128"/>
        <source>succeeded</source>
        <translation>成功</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="129"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="137"/>
        <source>payment credit</source>
        <translation>支付入账</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="139"/>
        <source>refund debit</source>
        <translation>退款出账</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="141"/>
        <source>fee adjustment</source>
        <translation>手续费调整</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="143"/>
        <source>write-off</source>
        <translation>核销</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="150"/>
        <source>captured</source>
        <translation>已收款</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="159"/>
        <source>settled</source>
        <translation>已结算</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="161"/>
        <source>not settled yet</source>
        <translation>尚未结算</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="168"/>
        <source>charge</source>
        <translation>收款</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="170"/>
        <source>refund</source>
        <comment>settlement line kind</comment>
        <translation>退款</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="254"/>
        <source>platform</source>
        <comment>actor role</comment>
        <translation>平台</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="258"/>
        <source>channel</source>
        <comment>actor role</comment>
        <translation>渠道</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="268"/>
        <source>anonymous</source>
        <comment>actor role</comment>
        <translation>匿名</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="270"/>
        <source>unknown</source>
        <comment>actor role</comment>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="299"/>
        <source>payment succeeded</source>
        <translation>支付成功</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="301"/>
        <source>payment failed</source>
        <comment>callback event</comment>
        <translation>支付失败</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="303"/>
        <source>payment pending</source>
        <translation>支付处理中</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="305"/>
        <source>refunded</source>
        <comment>callback event</comment>
        <translation>已退款</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="307"/>
        <source>other event</source>
        <translation>其他事件</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="315"/>
        <source>%1 (%2)</source>
        <comment>callback event, channel&apos;s event type</comment>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="321"/>
        <source>start payment</source>
        <translation>发起支付</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="323"/>
        <source>roll back</source>
        <comment>request operation</comment>
        <translation>回滚</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="333"/>
        <source>%1, v%2</source>
        <comment>request outcome: state, version</comment>
        <translation>%1，版本 %2</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="343"/>
        <source>created</source>
        <comment>purchase or logistics order</comment>
        <translation>已创建</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="351"/>
        <source>from %1</source>
        <translation>起始 %1</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="353"/>
        <source>to %1</source>
        <translation>截至 %1</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="355"/>
        <source>actor %1</source>
        <translation>操作者 %1</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="357"/>
        <source>action %1</source>
        <translation>动作 %1</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="359"/>
        <source>order %1</source>
        <translation>订单 %1</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="361"/>
        <source>callback %1</source>
        <translation>回调 %1</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="363"/>
        <source>entity kind %1</source>
        <translation>实体类型 %1</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="365"/>
        <source>entity %1</source>
        <translation>实体 %1</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="367"/>
        <source>up to seq %1</source>
        <translation>序号不超过 %1</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="368"/>
        <source>all rows</source>
        <translation>全部记录</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="368"/>
        <source>, </source>
        <comment>list separator</comment>
        <translation>，</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="383"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="385"/>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="387"/>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="390"/>
        <source>%1 d %2 h</source>
        <translation>%1 天 %2 小时</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="402"/>
        <source>%1 minor units (no currency)</source>
        <translation>%1 最小货币单位（无币种）</translation>
    </message>
    <message>
        <location filename="../../models/common/labels.cpp" line="404"/>
        <source>%1 %2 minor units (unknown currency)</source>
        <translation>%1 %2 最小货币单位（未知币种）</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="25"/>
        <source>Requeue message</source>
        <translation>重新排队消息</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="27"/>
        <source>Resolve message (no effect)</source>
        <translation>结案消息（无业务影响）</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="29"/>
        <source>Confirm payment</source>
        <translation>确认付款</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="31"/>
        <source>Roll payment back</source>
        <translation>回滚付款</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="33"/>
        <source>Adjust fee</source>
        <translation>调整手续费</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="35"/>
        <source>Write off</source>
        <translation>核销</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="37"/>
        <source>Close period</source>
        <translation>关闭期间</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="44"/>
        <source>Waiting for approval</source>
        <translation>等待审批</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="46"/>
        <source>Applied</source>
        <translation>已执行</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="48"/>
        <source>Rejected</source>
        <translation>已驳回</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="50"/>
        <source>Failed (target moved)</source>
        <translation>失败（对象已变化）</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="94"/>
        <source>Paid, not settled</source>
        <translation>已付款未结算</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="96"/>
        <source>Refunded, not settled</source>
        <translation>已退款未结算</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="98"/>
        <source>Settled, unknown to us</source>
        <translation>已结算但我方未知</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="100"/>
        <source>Amount mismatch</source>
        <translation>金额不符</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="102"/>
        <source>Fee mismatch</source>
        <translation>手续费不符</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="104"/>
        <source>Currency mismatch</source>
        <translation>币种不符</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="106"/>
        <source>Duplicate settlement</source>
        <translation>重复结算</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="110"/>
        <source>Chargeback</source>
        <translation>拒付</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="112"/>
        <source>Settlement adjustment</source>
        <translation>结算调整</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="114"/>
        <source>Settled after write-off</source>
        <translation>核销后已结算</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="121"/>
        <source>Open</source>
        <translation>未结</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="123"/>
        <source>Corrected automatically</source>
        <translation>已自动更正</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="125"/>
        <source>Resolved</source>
        <translation>已解决</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="127"/>
        <source>Written off</source>
        <translation>已核销</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="134"/>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="136"/>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="138"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixlabels.cpp" line="140"/>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../models/common/reasontext.cpp" line="24"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../../models/common/reasontext.cpp" line="30"/>
        <source>Wrong password</source>
        <translation>密码错误</translation>
    </message>
    <message>
        <location filename="../../models/common/reasontext.cpp" line="32"/>
        <source>Too many failed sign-ins</source>
        <translation>登录失败次数过多</translation>
    </message>
    <message>
        <location filename="../../models/common/reasontext.cpp" line="126"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../../models/common/reasontext.cpp" line="71"/>
        <source>Shop&apos;s reason: %1</source>
        <translation>商户给出的原因：%1</translation>
    </message>
    <message>
        <location filename="../../models/common/reasontext.cpp" line="72"/>
        <source>Staff comment: %1</source>
        <translation>员工备注：%1</translation>
    </message>
    <message>
        <location filename="../../models/common/reasontext.cpp" line="73"/>
        <source>Reason given: %1</source>
        <translation>给出的原因：%1</translation>
    </message>
</context>
<context>
    <name>OncePay::Language</name>
    <message>
        <location filename="../../views/common/language.cpp" line="44"/>
        <source>Follow the system (%1)</source>
        <translation>跟随系统（%1）</translation>
    </message>
</context>
<context>
    <name>OncePay::LedgerModel</name>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="292"/>
        <source>Booked</source>
        <translation>记账时间</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="293"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="294"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="296"/>
        <source>Transaction</source>
        <translation>交易号</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="297"/>
        <source>Callback</source>
        <translation>回调</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="298"/>
        <source>Key</source>
        <translation>键</translation>
    </message>
</context>
<context>
    <name>OncePay::MainWindow</name>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="78"/>
        <source>OncePay Console — %1</source>
        <translation>OncePay 控制台 —— %1</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="91"/>
        <source>Dashboard</source>
        <translation>仪表盘</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="92"/>
        <source>Order investigation</source>
        <translation>订单调查</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="93"/>
        <source>Stuck records</source>
        <translation>滞留记录</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="94"/>
        <source>Approvals</source>
        <translation>审批</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="95"/>
        <source>Reconciliation</source>
        <translation>对账</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="98"/>
        <source>Audit trail</source>
        <translation>审计轨迹</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="100"/>
        <source>Administration</source>
        <translation>系统管理</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="102"/>
        <source>Databases</source>
        <translation>数据库</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="147"/>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="157"/>
        <location filename="../../views/shell/mainwindow.cpp" line="376"/>
        <source>Orders</source>
        <translation>订单库</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="157"/>
        <location filename="../../views/shell/mainwindow.cpp" line="376"/>
        <source>Messages</source>
        <translation>消息库</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="157"/>
        <location filename="../../views/shell/mainwindow.cpp" line="376"/>
        <source>Audit</source>
        <translation>审计库</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="159"/>
        <source>%1: checking…</source>
        <translation>%1：检查中……</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="188"/>
        <source>%1 (Ctrl+%2)</source>
        <translation>%1（Ctrl+%2）</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="310"/>
        <source>&amp;Console</source>
        <translation>控制台(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="311"/>
        <source>Connection &amp;profiles…</source>
        <translation>连接配置(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="312"/>
        <source>P&amp;references…</source>
        <translation>偏好设置(&amp;R)…</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="315"/>
        <source>Sign &amp;out</source>
        <translation>退出登录(&amp;O)</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="317"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="320"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="328"/>
        <source>&amp;Find an order…</source>
        <translation>查找订单(&amp;F)……</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="340"/>
        <source>Signed in: %1 (%2)</source>
        <translation>已登录：%1（%2）</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="385"/>
        <source>%1: ● %2</source>
        <translation>%1：● %2</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="389"/>
        <source>%1: ▲ schema newer than this console</source>
        <translation>%1：▲ 结构版本比本控制台新</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="390"/>
        <source>%1: ▲ migration pending</source>
        <translation>%1：▲ 待迁移</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="394"/>
        <source>%1: ✕ file not found</source>
        <translation>%1：✕ 找不到文件</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="395"/>
        <source>%1: ✕ login refused</source>
        <translation>%1：✕ 登录被拒绝</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="396"/>
        <source>%1: ✕ wrong database</source>
        <translation>%1：✕ 数据库不对</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="397"/>
        <source>%1: ✕ unreachable</source>
        <translation>%1：✕ 无法连接</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="468"/>
        <source>You were signed out: an administrator disabled your account.</source>
        <translation>您已被登出：管理员停用了您的账户。</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="471"/>
        <source>You were signed out: your staff account no longer exists.</source>
        <translation>您已被登出：您的员工账户已不存在。</translation>
    </message>
    <message>
        <location filename="../../views/shell/mainwindow.cpp" line="474"/>
        <source>You were signed out: an administrator changed your role. Sign in again to work with the new one.</source>
        <translation>您已被登出：管理员更改了您的角色。请重新登录以使用新角色。</translation>
    </message>
</context>
<context>
    <name>OncePay::MessageModel</name>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="240"/>
        <source>Received</source>
        <translation>接收时间</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="241"/>
        <source>Callback</source>
        <translation>回调</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="242"/>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="245"/>
        <source>Attempt</source>
        <translation>支付尝试</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="246"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="255"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="264"/>
        <source>Tries</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="265"/>
        <source>Reason / last error</source>
        <translation>原因 / 最近错误</translation>
    </message>
</context>
<context>
    <name>OncePay::OrderHitModel</name>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="78"/>
        <source>Order</source>
        <translation>订单</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="83"/>
        <source>Found by</source>
        <translation>匹配方式</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="87"/>
        <source>%1 on %2</source>
        <comment>transaction id on channel</comment>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="90"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="92"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="95"/>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="96"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="98"/>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="99"/>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
</context>
<context>
    <name>OncePay::OrderPage</name>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="65"/>
        <source>&lt;h2&gt;Order investigation&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;订单调查&lt;/h2&gt;</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="68"/>
        <source>Order, customer, transaction, callback or request id</source>
        <translation>订单号、客户编号、交易号、回调编号或请求编号</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="71"/>
        <source>&amp;Find</source>
        <translation>查找(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="76"/>
        <source>&amp;Export dossier…</source>
        <translation>导出案卷(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="78"/>
        <source>Save everything about this order as a PDF for a dispute</source>
        <translation>将此订单的全部信息保存为 PDF，用于争议处理</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="81"/>
        <source>&amp;Propose fix</source>
        <translation>提议修复(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="83"/>
        <source>Ask for a correction of this order or its messages; a finance reviewer approves it</source>
        <translation>申请更正此订单或其消息；由财务审核人批准</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="92"/>
        <source>Confirm or roll back this order…</source>
        <translation>确认或回滚此订单…</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="95"/>
        <source>Requeue or resolve its stuck messages…</source>
        <translation>重新入队或解决其滞留的消息…</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="144"/>
        <source>Search for an order by any of its identifiers.</source>
        <translation>可用订单的任一编号进行搜索。</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="186"/>
        <source>&amp;Timeline</source>
        <translation>时间线(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="193"/>
        <source>Select a callback to see its body and headers as received.</source>
        <translation>选择一条回调，查看收到时的原始报文和请求头。</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="199"/>
        <source>&amp;Callbacks</source>
        <translation>回调(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="203"/>
        <source>&lt;b&gt;Payments&lt;/b&gt;</source>
        <translation>&lt;b&gt;支付记录&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="205"/>
        <source>&lt;b&gt;Ledger&lt;/b&gt;</source>
        <translation>&lt;b&gt;账本&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="207"/>
        <source>&lt;b&gt;Refunds due&lt;/b&gt;</source>
        <translation>&lt;b&gt;待退款&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="209"/>
        <source>&amp;Payments and ledger</source>
        <translation>支付与账本(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="210"/>
        <source>&amp;Requests</source>
        <translation>请求(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="212"/>
        <source>Purchase and &amp;logistics</source>
        <translation>采购与物流(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="219"/>
        <source>&amp;Audit rows</source>
        <translation>审计记录(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage_search.cpp" line="51"/>
        <location filename="../../views/orders/orderpage_search.cpp" line="54"/>
        <source>Searching…</source>
        <translation>搜索中……</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage_search.cpp" line="117"/>
        <source>No order matches “%1”.</source>
        <translation>没有与“%1”匹配的订单。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/orders/orderpage_search.cpp" line="119"/>
        <source>%n order(s) match “%1”; choose one. It also matches callbacks for orders that do not exist:</source>
        <translation>
            <numerusform>有 %n 个订单匹配“%1”，请选择一个。它还匹配了指向不存在订单的回调：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/orders/orderpage_search.cpp" line="126"/>
        <source>%n orders match; choose one.</source>
        <translation>
            <numerusform>有 %n 个订单匹配，请选择一个。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/orders/orderpage_search.cpp" line="142"/>
        <source>… and %n more callback(s) for unknown orders.</source>
        <translation>
            <numerusform>……另有 %n 条回调指向未知订单。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage_search.cpp" line="148"/>
        <source>Callback %1 (transaction %2) belongs to no order</source>
        <translation>回调 %1（交易 %2）不属于任何订单</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage_search.cpp" line="150"/>
        <source>Callback %1 names order %2, which does not exist</source>
        <translation>回调 %1 指向的订单 %2 不存在</translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/orders/orderpage_search.cpp" line="153"/>
        <source>%1 after %n attempt(s)</source>
        <translation>
            <numerusform>%1（已尝试 %n 次）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage_search.cpp" line="154"/>
        <source>%1: %2.</source>
        <translation>%1：%2。</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage_search.cpp" line="155"/>
        <source>%1: %2 — last error: %3</source>
        <translation>%1：%2 — 最近错误：%3</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage_search.cpp" line="164"/>
        <source>Loading order %1…</source>
        <translation>正在加载订单 %1……</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="338"/>
        <source>Order %1 — %2, version %3</source>
        <translation>订单 %1 —— %2，版本 %3</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="339"/>
        <source>Amount: %1</source>
        <translation>金额：%1</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="340"/>
        <source>Customer: %1</source>
        <translation>客户：%1</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="342"/>
        <source>Current attempt: %1 on %2</source>
        <translation>当前支付尝试：%1（%2）</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="344"/>
        <source>Transaction: %1</source>
        <translation>交易号：%1</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="348"/>
        <source>Reason: %1</source>
        <translation>原因：%1</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="351"/>
        <source>To refund: %1</source>
        <translation>待退款：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/orders/orderpage.cpp" line="357"/>
        <source>%n open reconciliation exception(s) (%1)</source>
        <translation>
            <numerusform>%n 个未结对账异常（%1）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="360"/>
        <source>Updated: %1</source>
        <translation>更新时间：%1</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="378"/>
        <source>Path: %1</source>
        <translation>路径：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/orders/orderpage.cpp" line="382"/>
        <source>%n refused attempt(s)</source>
        <translation>
            <numerusform>%n 次被拒绝的尝试</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/orders/orderpage.cpp" line="399"/>
        <source>%n event(s) in the timeline.</source>
        <translation>
            <numerusform>时间线中共有 %n 个事件。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="408"/>
        <source>Export dossier</source>
        <translation>导出案卷</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="409"/>
        <source>PDF documents (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="426"/>
        <source>Writing the dossier of order %1…</source>
        <translation>正在写入订单 %1 的案卷…</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="455"/>
        <source>The dossier was not exported: %1</source>
        <translation>案卷未导出：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/orders/orderpage.cpp" line="459"/>
        <source>Dossier saved to %1 (%n page(s), SHA-256 %2).</source>
        <translation>
            <numerusform>案卷已保存到 %1（%n 页，SHA-256 %2）。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="485"/>
        <source>Signature: verified by the gateway before the callback was stored.</source>
        <translation>签名：网关在存储该回调之前已验证。</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="486"/>
        <source>Signature: verified by the gateway before the callback was stored — %1</source>
        <translation>签名：网关在存储该回调之前已验证 —— %1</translation>
    </message>
    <message>
        <location filename="../../views/orders/orderpage.cpp" line="489"/>
        <source>Callback %1 from %2
%3
Unsigned, wrongly signed or late requests are refused: only the refusal is recorded (reason, size, body hash), never the request.

Headers:
%4
Body:
%5</source>
        <translation>回调 %1，来自 %2
%3
未签名、签名错误或过期的请求会被拒绝：只记录拒绝本身（原因、大小、正文哈希），从不保存请求。

请求头：
%4
正文：
%5</translation>
    </message>
</context>
<context>
    <name>OncePay::PaymentModel</name>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="275"/>
        <source>Captured</source>
        <translation>扣款时间</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="276"/>
        <source>Channel</source>
        <translation>渠道</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="277"/>
        <source>Transaction</source>
        <translation>交易号</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="278"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="280"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="282"/>
        <source>Settlement</source>
        <translation>结算</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="285"/>
        <source>Attempt</source>
        <translation>支付尝试</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="286"/>
        <source>Callback</source>
        <translation>回调</translation>
    </message>
</context>
<context>
    <name>OncePay::PreferencesDialog</name>
    <message>
        <location filename="../../views/common/preferencesdialog.cpp" line="16"/>
        <source>Preferences</source>
        <translation>偏好设置</translation>
    </message>
    <message>
        <location filename="../../views/common/preferencesdialog.cpp" line="25"/>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../../views/common/preferencesdialog.cpp" line="27"/>
        <source>The window is rebuilt in the new language; you stay signed in.</source>
        <translation>窗口将以新语言重建；您保持登录状态。</translation>
    </message>
</context>
<context>
    <name>OncePay::ProfileForm</name>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="31"/>
        <source>SQLite (a file on this computer)</source>
        <translation>SQLite（此计算机上的文件）</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="32"/>
        <source>PostgreSQL</source>
        <translation>PostgreSQL</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="33"/>
        <source>MySQL / MariaDB</source>
        <translation>MySQL / MariaDB</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="39"/>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="42"/>
        <source>SQLite database file</source>
        <translation>SQLite 数据库文件</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="42"/>
        <source>SQLite databases (*.db)</source>
        <translation>SQLite 数据库 (*.db)</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="51"/>
        <source>&amp;File:</source>
        <translation>文件(&amp;F)：</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="69"/>
        <source>Asked at each start</source>
        <translation>每次启动时询问</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="70"/>
        <source>Kept in the keychain of this computer</source>
        <translation>保存在此计算机的钥匙串中</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="71"/>
        <source>Kept in the keychain (none available here)</source>
        <translation>保存在钥匙串中（此处不可用）</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="73"/>
        <source>From an environment variable</source>
        <translation>来自环境变量</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="81"/>
        <source>used for the test and this session; never written to a file</source>
        <translation>用于测试和本次会话；从不写入文件</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="87"/>
        <source>driver options, e.g. sslmode=require</source>
        <translation>驱动选项，例如 sslmode=require</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="88"/>
        <source>Driver options only, never a password: an option that carries one is refused. Choose where the password comes from under “Password from”.</source>
        <translation>此处仅填写驱动选项，不得填写密码：携带密码的选项会被拒绝。请在“密码来源”中选择密码的来源。</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="93"/>
        <source>&amp;Host:</source>
        <translation>主机(&amp;H)：</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="94"/>
        <source>P&amp;ort:</source>
        <translation>端口(&amp;O)：</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="95"/>
        <source>&amp;Database:</source>
        <translation>数据库(&amp;D)：</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="96"/>
        <source>&amp;User:</source>
        <translation>用户(&amp;U)：</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="97"/>
        <source>Pass&amp;word from:</source>
        <translation>密码来源(&amp;W)：</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="98"/>
        <source>Pa&amp;ssword:</source>
        <translation>密码(&amp;S)：</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="99"/>
        <source>&amp;Variable:</source>
        <translation>变量(&amp;V)：</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="100"/>
        <source>O&amp;ptions:</source>
        <translation>选项(&amp;P)：</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="106"/>
        <source>&amp;Test connection</source>
        <translation>测试连接(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="115"/>
        <source>D&amp;river:</source>
        <translation>驱动(&amp;R)：</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="147"/>
        <source>Not used: the password is the value of the environment variable below, as this console was started with it.</source>
        <translation>不使用：密码取自下方的环境变量（即本控制台启动时的值）。</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="234"/>
        <source>Not tested: the option “%1” would carry a secret. Remove it from Options and choose where the password comes from under “Password from”.</source>
        <translation>未测试：选项“%1”会携带机密信息。请从“选项”中删除它，并在“密码来源”中选择密码的来源。</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="242"/>
        <source>Not tested: the environment variable %1 is not set for this console. Set it before starting the console, or choose another source under “Password from”.</source>
        <translation>未测试：本控制台未设置环境变量 %1。请在启动控制台前设置它，或在“密码来源”中选择其他来源。</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="253"/>
        <source>Not tested: type the password once so it can be kept in the keychain.</source>
        <translation>未测试：请输入一次密码，以便保存到钥匙串中。</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="256"/>
        <source>Not tested: the keychain entry %1 could not be read: %2</source>
        <translation>未测试：无法读取钥匙串条目 %1：%2</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="264"/>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="305"/>
        <source>Connected to %1 (driver %2), but this is an orders database, not an audit database: choose the audit database here.</source>
        <translation>已连接到 %1（驱动 %2），但这是订单数据库，不是审计数据库：请在此选择审计数据库。</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="308"/>
        <source>Connected to %1 (driver %2), but this is an audit database, not an orders database: choose the orders database here.</source>
        <translation>已连接到 %1（驱动 %2），但这是审计数据库，不是订单数据库：请在此选择订单数据库。</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="315"/>
        <source>Login refused: %1</source>
        <translation>登录被拒绝：%1</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="316"/>
        <source>Not reachable: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="320"/>
        <source>Connected to %1 (driver %2), but its schema, version %3, is newer than this console knows (%4): use the OncePay release that migrated it.</source>
        <translation>已连接到 %1（驱动 %2），但其架构版本 %3 比本控制台所知的版本（%4）更新：请使用执行该迁移的 OncePay 版本。</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="328"/>
        <source>Connected to %1 (driver %2), but the database has no OncePay schema yet: run `oncepay db migrate` to create it (version %3).</source>
        <translation>已连接到 %1（驱动 %2），但该数据库尚无 OncePay 架构：请运行 `oncepay db migrate` 创建（版本 %3）。</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="335"/>
        <source>Connected to %1 (driver %2), but its schema is at version %3 and this console needs version %4: run `oncepay db migrate` before using it.</source>
        <translation>已连接到 %1（驱动 %2），但其架构为版本 %3，本控制台需要版本 %4：使用前请运行 `oncepay db migrate`。</translation>
    </message>
    <message>
        <location filename="../../views/connections/profileform.cpp" line="343"/>
        <source>Connected to %1 (driver %2); the schema is current (version %3).</source>
        <translation>已连接到 %1（驱动 %2）；架构为最新（版本 %3）。</translation>
    </message>
</context>
<context>
    <name>OncePay::ProposeFixDialog</name>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="29"/>
        <source>Propose a fix</source>
        <translation>提议修复</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="36"/>
        <source>— choose a reason —</source>
        <translation>— 选择原因 —</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="41"/>
        <source>What you saw and why this fix is right (required, audited)</source>
        <translation>您看到了什么，为什么这个修复是正确的（必填，记入审计）</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="45"/>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="179"/>
        <source>empty: the discrepancy&apos;s own difference</source>
        <translation>留空：使用差异本身的差额</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="48"/>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="177"/>
        <source>&amp;Amount (%1):</source>
        <translation>金额（%1）(&amp;A)：</translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/fixes/proposefixdialog.cpp" line="115"/>
        <source>… and %n more</source>
        <translation>
            <numerusform>… 另有 %n 项</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="67"/>
        <source>&amp;Propose</source>
        <translation>提议(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="73"/>
        <source>A finance reviewer other than you must approve this before it takes effect. It is bound to the records as they are now: if they change first, the fix fails and must be proposed again.</source>
        <translation>须由您以外的财务审核人批准后才会生效。提议绑定记录的当前状态：如果记录先发生变化，修复将失败，需要重新提议。</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="79"/>
        <source>&amp;Fix:</source>
        <translation>修复(&amp;F)：</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="124"/>
        <source>Targets (%1):</source>
        <translation>对象（%1）：</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="81"/>
        <source>&amp;Reason:</source>
        <translation>原因(&amp;R)：</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="82"/>
        <source>&amp;Comment:</source>
        <translation>备注(&amp;C)：</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="125"/>
        <source>Targets (%1 of %2):</source>
        <translation>对象（共 %2 个中的 %1 个）：</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="158"/>
        <source>— currency —</source>
        <translation>— 币种 —</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="160"/>
        <source>Expected (the payment&apos;s currency)</source>
        <translation>应收（支付的币种）</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="162"/>
        <source>Settled (the settlement line&apos;s currency)</source>
        <translation>结算（结算明细的币种）</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="177"/>
        <source>&amp;Amount:</source>
        <translation>金额(&amp;A)：</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="178"/>
        <source>required: the amount to book</source>
        <translation>必填：要记账的金额</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="184"/>
        <source>Choose a reason.</source>
        <translation>请选择原因。</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="186"/>
        <source>Write a comment.</source>
        <translation>请填写备注。</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="188"/>
        <source>These discrepancies have amounts in different currencies: propose their fixes one at a time.</source>
        <translation>这些差异的金额涉及不同币种：请逐一提议修正。</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="191"/>
        <source>Give the amount to book: this discrepancy has amounts in two currencies (expected in %1, settled in %2).</source>
        <translation>请给出要记账的金额：此差异涉及两种币种（应收为 %1，结算为 %2）。</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="196"/>
        <source>Choose the amount&apos;s currency: %1 or %2.</source>
        <translation>请选择金额的币种：%1 或 %2。</translation>
    </message>
    <message>
        <location filename="../../views/fixes/proposefixdialog.cpp" line="198"/>
        <source>The amount is not a valid %1 amount.</source>
        <translation>该金额不是有效的 %1 金额。</translation>
    </message>
</context>
<context>
    <name>OncePay::ReconciliationPage</name>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="57"/>
        <source>Available in the channel balance %1</source>
        <translation>%1 进入渠道余额可用</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="59"/>
        <source>Completed %1</source>
        <translation>%1 完成</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="61"/>
        <source>Payout date %1</source>
        <translation>打款日 %1</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="63"/>
        <source>Approved %1</source>
        <translation>%1 批准</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="65"/>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="380"/>
        <source>Refunded %1</source>
        <translation>%1 退款</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="66"/>
        <source>Settled %1</source>
        <translation>%1 结算</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="97"/>
        <source>&lt;h2&gt;Reconciliation&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;对账&lt;/h2&gt;</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="98"/>
        <source>R&amp;un reconciliation…</source>
        <translation>运行对账(&amp;U)…</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="101"/>
        <source>&amp;Cancel run</source>
        <translation>取消运行(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="107"/>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="130"/>
        <source>Open exceptions</source>
        <translation>未结异常</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="131"/>
        <source>Corrected automatically</source>
        <translation>已自动更正</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="132"/>
        <source>Resolved or written off</source>
        <translation>已解决或已核销</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="134"/>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="137"/>
        <source>All kinds</source>
        <translation>全部类型</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="142"/>
        <source>All channels</source>
        <translation>全部渠道</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="147"/>
        <source>Any age</source>
        <translation>任意时长</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="148"/>
        <source>Older than 1 day</source>
        <translation>超过 1 天</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="149"/>
        <source>Older than 7 days</source>
        <translation>超过 7 天</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="150"/>
        <source>Older than 30 days</source>
        <translation>超过 30 天</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="174"/>
        <source>Settlement line</source>
        <translation>结算行</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="175"/>
        <source>Our payment</source>
        <translation>我方付款</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="176"/>
        <source>Rule and evidence</source>
        <translation>规则与证据</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="178"/>
        <source>&amp;Propose fix…</source>
        <translation>提议修复(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="181"/>
        <source>C&amp;lose period of selected run…</source>
        <translation>关闭所选运行的期间(&amp;L)…</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="184"/>
        <source>Open &amp;order</source>
        <translation>打开订单(&amp;O)</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="208"/>
        <source>&amp;Show:</source>
        <translation>显示(&amp;S)：</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="208"/>
        <source>&amp;Kind:</source>
        <translation>类型(&amp;K)：</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="209"/>
        <source>C&amp;hannel:</source>
        <translation>渠道(&amp;H)：</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="209"/>
        <source>A&amp;ge:</source>
        <translation>时长(&amp;G)：</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="235"/>
        <source>&lt;b&gt;Runs&lt;/b&gt;</source>
        <translation>&lt;b&gt;对账运行&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="237"/>
        <source>&lt;b&gt;Exceptions&lt;/b&gt;</source>
        <translation>&lt;b&gt;异常&lt;/b&gt;</translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="295"/>
        <source>%n open exception(s)</source>
        <translation>
            <numerusform>%n 个未结异常</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="297"/>
        <source>%1: %2</source>
        <comment>open exceptions: how many of each kind</comment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="298"/>
        <source>, </source>
        <comment>list separator</comment>
        <translation>，</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="300"/>
        <source>%1 %2</source>
        <comment>two sentences, one after the other</comment>
        <translation>%1%2</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="302"/>
        <source>%1. %2</source>
        <comment>a sentence without its full stop, then another</comment>
        <translation>%1。%2</translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="303"/>
        <source>%n corrected automatically under the minimal-intervention rule.</source>
        <translation>
            <numerusform>按最小干预规则自动更正 %n 项。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="309"/>
        <source>%n refund(s) owed in all (Stuck records): one is a &quot;Refund due&quot; exception once a run has seen the channel settle the money captured.</source>
        <translation>
            <numerusform>共欠 %n 笔退款（见“滞留记录”）：对账运行看到渠道结算了所收款项后，每笔才成为一条“待退款”异常。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="314"/>
        <source>Latest run covers %1 of eligible payments.</source>
        <translation>最近一次运行覆盖了 %1 的应对账付款。</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="319"/>
        <source>A run is overdue: the last one finished %1 ago (cadence %2).</source>
        <translation>对账已逾期：上次运行于 %1 前完成（周期 %2）。</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="323"/>
        <source>No reconciliation has run yet.</source>
        <translation>尚未运行过对账。</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="343"/>
        <source>Select an exception.</source>
        <translation>请选择一个异常。</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="351"/>
        <source>Line #%1 (%2)&lt;br&gt;Gross %3&lt;br&gt;Fee %4&lt;br&gt;Net %5&lt;br&gt;%6</source>
        <comment>%6: the line&apos;s date as the channel means it</comment>
        <translation>第 %1 行（%2）&lt;br&gt;总额 %3&lt;br&gt;手续费 %4&lt;br&gt;净额 %5&lt;br&gt;%6</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="360"/>
        <source>No refund line: the channel has not reported this refund.</source>
        <translation>无退款行：渠道尚未报告这笔退款。</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="361"/>
        <source>No settlement line: the channel has not settled this payment.</source>
        <translation>无结算行：渠道尚未结算此付款。</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="366"/>
        <source>Made at the channel %1</source>
        <comment>when the channel made the charge or refund; %1 a date and time</comment>
        <translation>渠道交易时间 %1</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="370"/>
        <source>Order %1 (%2)&lt;br&gt;Captured %3&lt;br&gt;Status %4&lt;br&gt;At %5</source>
        <translation>订单 %1（%2）&lt;br&gt;已收款 %3&lt;br&gt;状态 %4&lt;br&gt;时间 %5</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="376"/>
        <source>No payment with transaction %1 is known to OncePay.</source>
        <translation>OncePay 中没有交易号为 %1 的付款。</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="383"/>
        <source>Rule %1 version %2; fee schedule #%3 %4</source>
        <translation>规则 %1 第 %2 版；费率表 #%3 %4</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="390"/>
        <source>Evidence SHA-256 %1</source>
        <translation>证据 SHA-256 %1</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="396"/>
        <source>Fix #%1 is waiting for approval.</source>
        <translation>修复 #%1 正在等待审批。</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="435"/>
        <source>Run reconciliation</source>
        <translation>运行对账</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="448"/>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="452"/>
        <source>&amp;From (UTC):</source>
        <translation>起始（UTC）(&amp;F)：</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="453"/>
        <source>&amp;To, inclusive:</source>
        <translation>截止（含）(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="530"/>
        <source>The run was not started. %1</source>
        <comment>%1: why, a sentence of its own</comment>
        <translation>对账运行未启动。%1</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="532"/>
        <source>The run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="509"/>
        <source>Run #%1 was cancelled; nothing it found was kept.</source>
        <translation>运行 #%1 已取消；其结果未保留。</translation>
    </message>
    <message>
        <location filename="../../views/reconciliation/reconciliationpage.cpp" line="510"/>
        <source>Run #%1 finished: coverage %2, %3 corrected automatically, %4 new exception(s).</source>
        <translation>运行 #%1 已完成：覆盖率 %2，自动更正 %3 项，新增 %4 个异常。</translation>
    </message>
</context>
<context>
    <name>OncePay::RefundModel</name>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="324"/>
        <source>Flagged</source>
        <translation>标记时间</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="325"/>
        <source>Channel</source>
        <translation>渠道</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="326"/>
        <source>Transaction</source>
        <translation>交易号</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="328"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="330"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="333"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="334"/>
        <source>Resolved</source>
        <translation>已处理</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="336"/>
        <source>open</source>
        <translation>未处理</translation>
    </message>
</context>
<context>
    <name>OncePay::RunModel</name>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="260"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="265"/>
        <source>Period</source>
        <translation>期间</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="269"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="272"/>
        <source>Coverage</source>
        <translation>覆盖率</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="280"/>
        <source>settled and matched ÷ eligible = %1 ÷ %2</source>
        <translation>已结算且匹配 ÷ 应对账 = %1 ÷ %2</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="283"/>
        <source>Matched</source>
        <translation>已匹配</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="286"/>
        <source>Auto-fixed</source>
        <translation>自动更正</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="289"/>
        <source>Opened</source>
        <translation>新开异常</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="292"/>
        <source>By</source>
        <translation>执行人</translation>
    </message>
    <message>
        <location filename="../../models/fixes/fixmodels.cpp" line="293"/>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
</context>
<context>
    <name>OncePay::SettingsModel</name>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="22"/>
        <source>Attempts before a message becomes a dead letter</source>
        <translation>消息成为死信前的尝试次数</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="25"/>
        <source>How long a worker holds a claimed message</source>
        <translation>工作进程持有已领取消息的时长</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="27"/>
        <source>First retry delay (ms), doubled per attempt</source>
        <translation>首次重试延迟（毫秒），每次加倍</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="30"/>
        <source>Longest retry delay (ms)</source>
        <translation>最长重试延迟（毫秒）</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="32"/>
        <source>A message or order in flight longer than this is stuck</source>
        <translation>消息或订单处理超过此时长即视为卡住</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="35"/>
        <source>A request pending longer than this is stuck</source>
        <translation>请求挂起超过此时长即视为卡住</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="38"/>
        <source>Fee difference corrected automatically (parts per million)</source>
        <translation>自动更正的手续费差额（百万分比）</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="41"/>
        <source>A payment not settled after this many hours is an exception</source>
        <translation>付款超过此小时数未结算即为异常</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="44"/>
        <source>How much earlier a channel may stamp a capture than OncePay booked it (minutes)</source>
        <translation>渠道记录的收款时间可早于 OncePay 入账时间的分钟数</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="48"/>
        <source>A reconciliation run is due this often</source>
        <translation>对账运行的周期</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="50"/>
        <source>Fixes above this amount (minor units) need two approvers</source>
        <translation>超过此金额（最小货币单位）的修复需要两人批准</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="53"/>
        <source>The same for JPY (whole yen)</source>
        <translation>日元的同一阈值（整日元）</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="55"/>
        <source>The same for KRW (whole won)</source>
        <translation>韩元的同一阈值（整韩元）</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="57"/>
        <source>The same for XOF (whole francs)</source>
        <translation>西非法郎的同一阈值（整法郎）</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="59"/>
        <source>How long past its end (ms) a worker&apos;s lease must be before a fix may requeue or resolve its message: clocks of other hosts may run ahead</source>
        <translation>工作进程的租约须在结束后超过此时长（毫秒），修复才能重新排队或了结其消息：其他主机的时钟可能偏快</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="64"/>
        <source>Failed sign-ins before an account locks</source>
        <translation>账号锁定前允许的登录失败次数</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="66"/>
        <source>How long a locked account stays locked</source>
        <translation>账号锁定的时长</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="68"/>
        <source>Largest webhook body accepted</source>
        <translation>接受的最大 Webhook 正文</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="70"/>
        <source>Allowed clock difference of a signed webhook, both ways</source>
        <translation>签名 Webhook 允许的时钟偏差（双向）</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="107"/>
        <source>Setting</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="109"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="116"/>
        <source>Allowed</source>
        <translation>允许范围</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="119"/>
        <source>Meaning</source>
        <translation>含义</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="121"/>
        <source>Changed by</source>
        <translation>修改人</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="123"/>
        <source>Changed</source>
        <translation>修改时间</translation>
    </message>
</context>
<context>
    <name>OncePay::SignInDialog</name>
    <message>
        <location filename="../../views/auth/signindialog.cpp" line="23"/>
        <source>Sign in to OncePay</source>
        <translation>登录 OncePay</translation>
    </message>
    <message>
        <location filename="../../views/auth/signindialog.cpp" line="26"/>
        <source>&lt;h2&gt;OncePay Console&lt;/h2&gt;&lt;p&gt;Sign in with your staff account.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;OncePay 控制台&lt;/h2&gt;&lt;p&gt;请使用员工账号登录。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../views/auth/signindialog.cpp" line="39"/>
        <source>Sign in</source>
        <translation>登录</translation>
    </message>
    <message>
        <location filename="../../views/auth/signindialog.cpp" line="42"/>
        <source>&amp;Databases…</source>
        <translation>数据库(&amp;D)…</translation>
    </message>
    <message>
        <location filename="../../views/auth/signindialog.cpp" line="44"/>
        <source>Edit, test and switch the connection profiles</source>
        <translation>编辑、测试并切换连接配置</translation>
    </message>
    <message>
        <location filename="../../views/auth/signindialog.cpp" line="52"/>
        <source>&amp;User name:</source>
        <translation>用户名(&amp;U)：</translation>
    </message>
    <message>
        <location filename="../../views/auth/signindialog.cpp" line="53"/>
        <source>&amp;Password:</source>
        <translation>密码(&amp;P)：</translation>
    </message>
    <message>
        <location filename="../../views/auth/signindialog.cpp" line="104"/>
        <source>Type your user name and password.</source>
        <translation>请输入用户名和密码。</translation>
    </message>
    <message>
        <location filename="../../views/auth/signindialog.cpp" line="108"/>
        <source>Checking…</source>
        <translation>验证中……</translation>
    </message>
    <message>
        <location filename="../../views/auth/signindialog.cpp" line="132"/>
        <source>Signed in as %1 (%2).</source>
        <translation>已登录为 %1（%2）。</translation>
    </message>
    <message>
        <location filename="../../views/auth/signindialog.cpp" line="145"/>
        <source>Wrong user name or password, or the account is locked.</source>
        <translation>用户名或密码错误，或账号已被锁定。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/auth/signindialog.cpp" line="146"/>
        <source>After %n failed sign-in(s) in a row an account is locked for %1; an administrator can lift the lock by resetting the password.</source>
        <translation>
            <numerusform>连续 %n 次登录失败后，账号将被锁定 %1；管理员可通过重置密码解除锁定。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../views/auth/signindialog.cpp" line="150"/>
        <source>This account is disabled. Ask an administrator.</source>
        <translation>该账号已停用，请联系管理员。</translation>
    </message>
    <message>
        <location filename="../../views/auth/signindialog.cpp" line="160"/>
        <source>This connection profile&apos;s database login cannot sign staff in; use the console&apos;s login (Databases…).</source>
        <translation>此连接配置的数据库登录名无法为员工登录；请使用控制台的登录名（数据库…）。</translation>
    </message>
    <message>
        <location filename="../../views/auth/signindialog.cpp" line="165"/>
        <source>The database cannot be reached. Check the connection profile (Databases…) and press Sign in to try again.</source>
        <translation>无法连接数据库。请检查连接配置（数据库…），然后按“登录”重试。</translation>
    </message>
</context>
<context>
    <name>OncePay::StaffModel</name>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="84"/>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="86"/>
        <source>Name</source>
        <translation>姓名</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="88"/>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="91"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="94"/>
        <source>disabled</source>
        <translation>已停用</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="94"/>
        <source>locked</source>
        <translation>已锁定</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="94"/>
        <source>active</source>
        <translation>正常</translation>
    </message>
    <message>
        <location filename="../../models/fixes/adminmodels.cpp" line="99"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
</context>
<context>
    <name>OncePay::StateDiagram</name>
    <message>
        <location filename="../../views/orders/statediagram.cpp" line="173"/>
        <source>Current state: %1</source>
        <translation>当前状态：%1</translation>
    </message>
    <message>
        <location filename="../../views/orders/statediagram.cpp" line="204"/>
        <location filename="../../views/orders/statediagram.cpp" line="254"/>
        <source>×%1</source>
        <translation>×%1</translation>
    </message>
</context>
<context>
    <name>OncePay::StuckModel</name>
    <message>
        <location filename="../../models/investigation/stuckmodel.cpp" line="19"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../models/investigation/stuckmodel.cpp" line="26"/>
        <source>Age</source>
        <translation>滞留时长</translation>
    </message>
    <message>
        <location filename="../../models/investigation/stuckmodel.cpp" line="32"/>
        <source>since %1</source>
        <translation>自 %1 起</translation>
    </message>
    <message>
        <location filename="../../models/investigation/stuckmodel.cpp" line="35"/>
        <source>Order</source>
        <translation>订单</translation>
    </message>
    <message>
        <location filename="../../models/investigation/stuckmodel.cpp" line="36"/>
        <source>Channel</source>
        <translation>渠道</translation>
    </message>
    <message>
        <location filename="../../models/investigation/stuckmodel.cpp" line="37"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../models/investigation/stuckmodel.cpp" line="46"/>
        <source>Tries</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <location filename="../../models/investigation/stuckmodel.cpp" line="53"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../models/investigation/stuckmodel.cpp" line="64"/>
        <source>Reference</source>
        <translation>引用</translation>
    </message>
    <message>
        <location filename="../../models/investigation/stuckmodel.cpp" line="67"/>
        <source>Reason / last error</source>
        <translation>原因 / 最近错误</translation>
    </message>
    <message>
        <location filename="../../models/investigation/stuckmodel.cpp" line="41"/>
        <source>to refund</source>
        <translation>待退款</translation>
    </message>
</context>
<context>
    <name>OncePay::StuckPage</name>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="40"/>
        <source>&lt;h2&gt;Stuck records&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;滞留记录&lt;/h2&gt;</translation>
    </message>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="43"/>
        <source>All kinds</source>
        <translation>全部类型</translation>
    </message>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="48"/>
        <source>Any age past the threshold</source>
        <translation>超过阈值的全部</translation>
    </message>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="49"/>
        <source>Older than 1 hour</source>
        <translation>超过 1 小时</translation>
    </message>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="50"/>
        <source>Older than 1 day</source>
        <translation>超过 1 天</translation>
    </message>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="51"/>
        <source>Older than 7 days</source>
        <translation>超过 7 天</translation>
    </message>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="54"/>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="76"/>
        <source>Enter or double-click opens the order</source>
        <translation>按回车或双击打开订单</translation>
    </message>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="83"/>
        <source>&amp;Propose fix…</source>
        <translation>提议修复(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="85"/>
        <source>Requeue or resolve the selected messages, or confirm or roll back the selected order; a finance reviewer approves it</source>
        <translation>重新排队或结案所选消息，或确认、回滚所选订单；由财务审核人批准</translation>
    </message>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="103"/>
        <source>This record names no order: searching the orders for its callback %1.</source>
        <translation>此记录未指明订单：正在按其回调 %1 搜索订单。</translation>
    </message>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="109"/>
        <source>This record names no order.</source>
        <translation>此记录未指明订单。</translation>
    </message>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="113"/>
        <source>Show &amp;more</source>
        <translation>显示更多(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="115"/>
        <source>Read the next records of the list (scrolling to its end does too)</source>
        <translation>读取列表的后续记录（滚动到列表末尾也会读取）</translation>
    </message>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="127"/>
        <source>&amp;Kind:</source>
        <translation>类型(&amp;K)：</translation>
    </message>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="131"/>
        <source>A&amp;ge:</source>
        <translation>时长(&amp;G)：</translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/stuck/stuckpage.cpp" line="290"/>
        <source>%n record(s) need attention.</source>
        <translation>
            <numerusform>%n 条记录需要处理。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="292"/>
        <source>Showing the oldest %L1; the other %L2 are read as the list is scrolled to its end (or with Show more).</source>
        <translation>显示最早的 %L1 条；其余 %L2 条会在滚动到列表末尾时（或点击“显示更多”）读取。</translation>
    </message>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="297"/>
        <source>%L1 shown: records changed while the list was read; refresh to count them again.</source>
        <translation>已显示 %L1 条：读取列表期间记录有变化；请刷新以重新统计。</translation>
    </message>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="300"/>
        <source>Thresholds from the operations settings: messages and orders after %1, requests after %2.</source>
        <translation>阈值来自运维设置：消息和订单超过 %1，请求超过 %2。</translation>
    </message>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="306"/>
        <source>Expired leases are offered no fix until this is corrected: %1</source>
        <translation>在更正此项之前，租约已过期的消息不提供修复：%1</translation>
    </message>
    <message>
        <location filename="../../views/stuck/stuckpage.cpp" line="364"/>
        <source>A selected message may still be held by its worker: its lease end plus the clock-skew allowance (fixes.lease_skew_ms) is not past yet. A fix is offered from %1.</source>
        <translation>所选消息可能仍由其工作进程持有：租约结束时间加上时钟偏差容许值（fixes.lease_skew_ms）尚未过去。自 %1 起提供修复。</translation>
    </message>
</context>
<context>
    <name>OncePay::TimelineModel</name>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="107"/>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="109"/>
        <source>Refused: %1 → %2</source>
        <translation>已拒绝：%1 → %2</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="112"/>
        <source>Callback received</source>
        <translation>收到回调</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="112"/>
        <source>Callback received, %1</source>
        <translation>收到回调，%1</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="114"/>
        <source>Worker: %1</source>
        <translation>处理器：%1</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="117"/>
        <source>Worker attempt %1 failed; dead-lettered</source>
        <translation>工作进程第 %1 次尝试失败；已转入死信</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="119"/>
        <source>Worker attempt %1 lost: its worker stopped, the lease expired</source>
        <translation>工作进程第 %1 次尝试丢失：该工作进程已停止，租约过期</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="121"/>
        <source>Worker attempt %1 failed; retry scheduled</source>
        <translation>工作进程第 %1 次尝试失败；已安排重试</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="122"/>
        <source>Ledger: %1 %2</source>
        <translation>账本：%1 %2</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="123"/>
        <source>Refund due: %1</source>
        <translation>待退款：%1</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="124"/>
        <source>Manual fix %1</source>
        <translation>人工修复 %1</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="125"/>
        <source>Audit: %1</source>
        <translation>审计：%1</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="134"/>
        <source>Open reconciliation exception: %1, expected %2, statement %3</source>
        <translation>未结对账异常：%1，预期 %2，对账单 %3</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="136"/>
        <source>Open reconciliation exception: %1</source>
        <translation>未结对账异常：%1</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="172"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="177"/>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="180"/>
        <source>v%1</source>
        <translation>v%1</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="182"/>
        <source>expected v%1</source>
        <translation>预期 v%1</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="187"/>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="197"/>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="214"/>
        <source>Cause</source>
        <translation>起因</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="217"/>
        <source>reconciliation exception %1</source>
        <translation>对账异常 %1</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="219"/>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <location filename="../../models/investigation/ordermodels.cpp" line="223"/>
        <source>Actor</source>
        <translation>执行者</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <location filename="../../app/console/main.cpp" line="63"/>
        <source>orders</source>
        <comment>the orders database</comment>
        <translation>订单</translation>
    </message>
    <message>
        <location filename="../../app/console/main.cpp" line="64"/>
        <source>messages</source>
        <comment>the messages database</comment>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../../app/console/main.cpp" line="65"/>
        <source>audit</source>
        <comment>the audit database</comment>
        <translation>审计</translation>
    </message>
    <message>
        <location filename="../../app/console/main.cpp" line="75"/>
        <source>its connection profile names no password environment variable (password_env) and no keychain entry</source>
        <translation>其连接配置既未指定密码环境变量（password_env），也未指定钥匙串条目</translation>
    </message>
    <message>
        <location filename="../../app/console/main.cpp" line="78"/>
        <source>no keychain is available on this machine</source>
        <translation>此计算机上没有可用的钥匙串</translation>
    </message>
    <message>
        <location filename="../../app/console/main.cpp" line="80"/>
        <source>the keychain has no entry %1</source>
        <translation>钥匙串中没有条目 %1</translation>
    </message>
    <message>
        <location filename="../../app/console/main.cpp" line="82"/>
        <source>the keychain entry %1 is empty</source>
        <translation>钥匙串条目 %1 为空</translation>
    </message>
    <message>
        <location filename="../../app/console/main.cpp" line="84"/>
        <source>the keychain refused access to the entry %1</source>
        <translation>钥匙串拒绝访问条目 %1</translation>
    </message>
    <message>
        <location filename="../../app/console/main.cpp" line="85"/>
        <source>the keychain entry %1 could not be read: %2</source>
        <translation>无法读取钥匙串条目 %1：%2</translation>
    </message>
    <message>
        <location filename="../../app/console/main.cpp" line="97"/>
        <source>Database password</source>
        <translation>数据库密码</translation>
    </message>
    <message>
        <location filename="../../app/console/main.cpp" line="98"/>
        <source>Password for the %1 database %2
(%3):</source>
        <translation>%1 数据库 %2 的密码
（%3）：</translation>
    </message>
    <message>
        <location filename="../../app/console/main.cpp" line="108"/>
        <location filename="../../app/console/main.cpp" line="292"/>
        <source>OncePay Console</source>
        <translation>OncePay 控制台</translation>
    </message>
    <message>
        <location filename="../../app/console/main.cpp" line="110"/>
        <source>No password was given for a database, so the console cannot connect and closes. Start it again to type the password, or give it through the profile&apos;s password_env or keychain entry.</source>
        <translation>未提供数据库密码，控制台无法连接，将会关闭。请重新启动并输入密码，或通过连接配置的 password_env 或钥匙串条目提供密码。</translation>
    </message>
    <message>
        <location filename="../../app/console/main.cpp" line="293"/>
        <source>The configuration cannot be used. Correct what is named below, in the configuration file or the environment variable it names, and start the console again.

%1</source>
        <translation>配置无法使用。请在配置文件或其指定的环境变量中改正下面列出的内容，然后重新启动控制台。

%1</translation>
    </message>
    <message>
        <location filename="../../views/fixes/fixactions.cpp" line="101"/>
        <location filename="../../views/fixes/fixactions.cpp" line="150"/>
        <location filename="../../views/fixes/fixactions.cpp" line="172"/>
        <location filename="../../views/fixes/fixactions.cpp" line="177"/>
        <location filename="../../views/fixes/fixactions.cpp" line="223"/>
        <location filename="../../views/fixes/fixactions.cpp" line="266"/>
        <location filename="../../views/fixes/fixactions.cpp" line="268"/>
        <source>Propose a fix</source>
        <translation>提议修复</translation>
    </message>
    <message>
        <location filename="../../views/fixes/fixactions.cpp" line="173"/>
        <source>Your role may not propose fixes.</source>
        <translation>您的角色不能提议修复。</translation>
    </message>
    <message>
        <location filename="../../views/fixes/fixactions.cpp" line="147"/>
        <location filename="../../views/fixes/fixactions.cpp" line="178"/>
        <source>No fix fits the selected rows.</source>
        <translation>没有适用于所选行的修复。</translation>
    </message>
    <message>
        <location filename="../../views/fixes/fixactions.cpp" line="102"/>
        <location filename="../../views/fixes/fixactions.cpp" line="113"/>
        <source>Nothing was proposed: %1</source>
        <translation>未提交任何提议：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/fixes/fixactions.cpp" line="115"/>
        <source>%n proposed; the rest were not sent: %1</source>
        <translation>
            <numerusform>已提议 %n 项；其余未发送：%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/fixes/fixactions.cpp" line="119"/>
        <source>%n proposed; you stopped before the rest were sent.</source>
        <translation>
            <numerusform>已提议 %n 项；您在其余项发送前停止了。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../views/fixes/fixactions.cpp" line="121"/>
        <source>%n fix(es) proposed and waiting for approval.</source>
        <translation>
            <numerusform>已提议 %n 项修复，等待审批。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../views/fixes/fixactions.cpp" line="127"/>
        <source>Refused:</source>
        <translation>被拒绝：</translation>
    </message>
    <message>
        <location filename="../../views/fixes/fixactions.cpp" line="224"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../views/fixes/fixactions.cpp" line="229"/>
        <location filename="../../views/fixes/fixactions.cpp" line="239"/>
        <source>Proposing %1 of %2…</source>
        <translation>正在提议第 %1 项，共 %2 项…</translation>
    </message>
</context>
</TS>
