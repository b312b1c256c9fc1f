// Package record defines the public row contract for trajectories and
// scores: the objects the JSON lines exporter writes, one per line, and the
// rows other storage exporters insert. Field names and order are part of the
// contract; changing them is a breaking change.
package record

import (
	"time"
)

// TimeLayout is the layout of every timestamp in a record: RFC 3339 in UTC
// with exactly nine fractional digits, so that values sort as strings.
const TimeLayout = "2006-01-02T15:04:05.000000000Z07:00"

// Time is a timestamp that encodes as TimeLayout in UTC, or as null when
// zero (unknown).
type Time struct {
	time.Time
}

// NewTime returns t as a record Time in UTC.
func NewTime(t time.Time) Time {
	if t.IsZero() {
		return Time{}
	}
	return Time{t.UTC()}
}

// MarshalJSON encodes the time as a quoted TimeLayout string, or null.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	b := make([]byte, 0, len(TimeLayout)+2)
	b = append(b, '"')
	b = AppendTime(b, t.Time)
	return append(b, '"'), nil
}

// AppendTime appends t in UTC formatted as TimeLayout. It is equivalent to
// t.UTC().AppendFormat(b, TimeLayout) for years 0–9999, and several times
// faster; other years fall back to AppendFormat.
func AppendTime(b []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.AppendFormat(b, TimeLayout)
	}
	hour, minute, sec := t.Clock()
	b = appendDigits(b, year, 4)
	b = append(b, '-')
	b = appendDigits(b, int(month), 2)
	b = append(b, '-')
	b = appendDigits(b, day, 2)
	b = append(b, 'T')
	b = appendDigits(b, hour, 2)
	b = append(b, ':')
	b = appendDigits(b, minute, 2)
	b = append(b, ':')
	b = appendDigits(b, sec, 2)
	b = append(b, '.')
	b = appendDigits(b, t.Nanosecond(), 9)
	return append(b, 'Z')
}

// appendDigits appends v (>= 0) zero-padded to width digits.
func appendDigits(b []byte, v, width int) []byte {
	var tmp [9]byte
	for i := width - 1; i >= 0; i-- {
		tmp[i] = byte('0' + v%10)
		v /= 10
	}
	return append(b, tmp[:width]...)
}

// UnmarshalJSON decodes a quoted RFC 3339 time or null.
func (t *Time) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*t = Time{}
		return nil
	}
	var v time.Time
	if err := v.UnmarshalJSON(b); err != nil {
		return err
	}
	*t = NewTime(v)
	return nil
}
