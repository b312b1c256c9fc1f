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
// faster: the civil date comes from the Unix day number by integer
// arithmetic (H. Hinnant's civil_from_days); other years fall back to
// AppendFormat.
func AppendTime(b []byte, t time.Time) []byte {
	secs := t.Unix()
	days, sod := secs/86400, secs%86400
	if sod < 0 {
		days, sod = days-1, sod+86400
	}
	z := days + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	day, month, year := doy-(153*mp+2)/5+1, mp+3, yoe+era*400
	if mp >= 10 {
		month -= 12
	}
	if month <= 2 {
		year++
	}
	if year < 0 || year > 9999 {
		return t.UTC().AppendFormat(b, TimeLayout)
	}
	var out [30]byte // 2006-01-02T15:04:05.000000000Z
	put := func(i int, v int64, width int) {
		for j := i + width - 1; j >= i; j-- {
			out[j] = byte('0' + v%10)
			v /= 10
		}
	}
	put(0, year, 4)
	out[4] = '-'
	put(5, month, 2)
	out[7] = '-'
	put(8, day, 2)
	out[10] = 'T'
	put(11, sod/3600, 2)
	out[13] = ':'
	put(14, sod/60%60, 2)
	out[16] = ':'
	put(17, sod%60, 2)
	out[19] = '.'
	put(20, int64(t.Nanosecond()), 9)
	out[29] = 'Z'
	return append(b, out[:]...)
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
