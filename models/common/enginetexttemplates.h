#pragma once

// The catalogue of sentences the engine writes (enginetexttemplates.cpp), for engineText()
// (enginetext.h): each in the engine's exact English, with what its arguments stand for. Kept
// apart from the matching so that adding a sentence touches the catalogue alone.
// Thread contract: constant data.

#include <span>

namespace OncePay::Labels {

struct EngineTextTemplate {
    const char *source; // QT_TRANSLATE_NOOP("OncePay::EngineText", ...)
    const char *args;   // one kind letter per %n (enginetexttemplates.cpp says which)
};

// Every template, the more specific before the more general: the first whole match wins.
std::span<const EngineTextTemplate> engineTextTemplateTable();

// The sentences about refunds, settlement lines and stored callbacks of 2026-12-01 on
// (enginetexttemplatesmoney.cpp); engineTextTemplateTable() puts them first.
std::span<const EngineTextTemplate> moneyEngineTextTemplates();

} // namespace OncePay::Labels
