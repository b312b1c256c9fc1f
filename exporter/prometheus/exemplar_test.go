package prometheus

import (
	"testing"
	"time"
)

func TestExemplarBudget(t *testing.T) {
	t0 := time.Unix(1000, 0)
	b := newExemplarBudget(3)
	var got []bool
	for i := 0; i < 5; i++ {
		got = append(got, b.allow(t0.Add(time.Duration(i)*time.Millisecond)))
	}
	want := []bool{true, true, true, false, false}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("allow sequence = %v, want %v", got, want)
		}
	}
	if !b.allow(t0.Add(time.Second)) {
		t.Error("budget did not restart in the next second")
	}
	if newExemplarBudget(0).allow(t0) {
		t.Error("a zero budget allowed an exemplar")
	}
}
