// Where an exit IP is, from an offline database shipped in an npm package (no network at
// lookup time). The interface lets tests, whose exits are 127.0.0.1, inject an answer.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Reader, type Response } from 'mmdb-lib';

export interface GeoInfo {
  country: string | null;
  city: string | null;
  asn: number | null;
}

export interface Geolocator {
  locate(ip: string): GeoInfo;
}

/**
 * Country only, from @ip-location-db/geo-whois-asn-country-mmdb (CC0 database built from the
 * RIRs' data, NRO, CC BY 4.0; about 8 MB), read with mmdb-lib, MaxMind's reader. City and
 * ASN databases of the same family are 60 to 130 MB each, too much to ship for a check.
 */
export class MmdbGeolocator implements Geolocator {
  private reader: Reader<Response> | null = null;

  private open(): Reader<Response> {
    // Loaded on the first check, not at start-up: most processes never validate a proxy.
    if (this.reader) return this.reader;
    const file = createRequire(import.meta.url).resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb');
    const reader = new Reader<Response>(readFileSync(file));
    this.reader = reader;
    return reader;
  }

  locate(ip: string): GeoInfo {
    let country: string | null = null;
    try {
      // This database's records are {country_code}, not MaxMind's nested shape.
      country = (this.open().get(ip) as { country_code?: string } | null)?.country_code ?? null;
    } catch {
      country = null;
    }
    return { country, city: null, asn: null };
  }
}
