package clickhouse

import (
	"fmt"
	"strings"
)

// serverVersion is a ClickHouse server version.
type serverVersion struct{ Major, Minor, Patch uint64 }

func (v serverVersion) String() string { return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch) }

func (v serverVersion) atLeast(major, minor uint64) bool {
	return v.Major > major || (v.Major == major && v.Minor >= minor)
}

// features are the version-gated parts of the schema and the insert path.
// The core schema (MergeTree family, DateTime, String, Float64, UInt*,
// Array, LowCardinality) runs on 18.16; each feature is used only on a
// server that has it.
type features struct {
	// LowCardinalitySetting sends allow_experimental_low_cardinality_type=1
	// (LowCardinality was experimental before 19.x releases made it GA).
	LowCardinalitySetting bool
	// TTL adds the table TTL clause (19.6).
	TTL bool
	// TTLOnlyDropParts drops whole parts at TTL instead of rewriting them.
	TTLOnlyDropParts bool
	// Codecs adds per-column compression codecs.
	Codecs bool
	// DateTime64 stores times with nanoseconds instead of seconds.
	DateTime64 bool
	// SkipIndexes adds bloom-filter indexes on trace ids.
	SkipIndexes bool
	// NonReplicatedDedup turns on insert deduplication for plain
	// MergeTree tables (non_replicated_deduplication_window).
	NonReplicatedDedup bool
	// DedupToken sends insert_deduplication_token with every batch (22.2).
	DedupToken bool
}

// featuresFor returns what a server of version v supports. The gates are
// conservative: a feature is enabled from a release that has it without
// experimental settings.
func featuresFor(v serverVersion) features {
	return features{
		LowCardinalitySetting: !v.atLeast(20, 1),
		TTL:                   v.atLeast(19, 6),
		TTLOnlyDropParts:      v.atLeast(20, 3),
		Codecs:                v.atLeast(20, 1),
		DateTime64:            v.atLeast(20, 1),
		SkipIndexes:           v.atLeast(20, 3),
		NonReplicatedDedup:    v.atLeast(21, 3),
		DedupToken:            v.atLeast(22, 2),
	}
}

// enabled lists the enabled features for the start-up log.
func (f features) enabled() string {
	var on []string
	for _, x := range []struct {
		name string
		on   bool
	}{
		{"low_cardinality_setting", f.LowCardinalitySetting}, {"ttl", f.TTL},
		{"ttl_only_drop_parts", f.TTLOnlyDropParts}, {"codecs", f.Codecs},
		{"datetime64", f.DateTime64}, {"skip_indexes", f.SkipIndexes},
		{"non_replicated_dedup", f.NonReplicatedDedup}, {"dedup_token", f.DedupToken},
	} {
		if x.on {
			on = append(on, x.name)
		}
	}
	if len(on) == 0 {
		return "none"
	}
	return strings.Join(on, ",")
}
