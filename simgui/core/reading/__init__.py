"""Reading: what one file's bytes become (sum table, content hash, fingerprints), and the scan
that reads every new or changed file of some folders once, on all cores, into the store."""
