#pragma once

// The sentences the engine writes into the database (a transition's or a refusal's reason, what
// the worker did with a callback, a dead letter's error, a refund obligation's reason, a
// discrepancy's detail, a fix's timeline line), shown in the interface language.
//
// The engine stores them in English and the console does not change what is stored. They come
// from a closed set of templates in services/ ("%1 reports success", "attempt %1 is not the
// current attempt of order %2 (v%3, %4)", ...). engineText() recognises a whole text as one of
// those templates, translates the template and puts the variable parts back, the codes among
// them (order states, fix kinds, reason codes, settlement line kinds) as words. Anything else is
// returned unchanged: what a platform or a person wrote (a cancellation's reason, a fix's
// comment), a channel's own error text, a template the engine has grown since. The stored text
// stays available to the views, e.g. as a tooltip.
// Thread contract: GUI thread (uses the installed translators); the templates are built once,
// thread-safely.

#include <QString>
#include <QStringList>

#include <optional>

namespace OncePay::Labels {

// The text in the interface language; `raw` itself when it is not an engine template.
QString engineText(const QString &raw);

// Whether `raw` is one of the engine's sentences (engineText() translates it), not someone's
// own words or a text the console does not know.
bool isEngineText(const QString &raw);

// Which template of engineTextTemplateTable() recognises `raw` — its position there: the first
// whose whole match has its arguments accepted — or nothing (for tests: a sentence must be
// recognised as its own template, not a more general one listed before it).
std::optional<qsizetype> engineTemplateIndex(const QString &raw);

// Someone's own words as the console shows them, untranslated: “words”.
QString quoted(const QString &words);

// The templates engineText() knows, in the engine's English (for tests and the translation).
QStringList engineTemplates();

} // namespace OncePay::Labels
