package aggregate

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
)

// HumanPrefix starts a dataset column holding people's label or score
// for a metric: "human:coherence".
const HumanPrefix = "human:"

// Agreement is how a metric agrees with people's labels on the rows that
// have both.
type Agreement struct {
	Metric string
	N      int // rows with both a score and a human value
	// Kappa is Cohen's kappa of the two as labels (the metric's label, or
	// its score when the human values are numbers); HasKappa is false
	// when the values are numbers of more than MaxCategories distinct
	// values, or every row is one category.
	Kappa    float64
	HasKappa bool
	// Confusion counts rows by human value then metric value, as labels.
	Confusion map[string]map[string]int
	// Spearman is the rank correlation and MAE the mean absolute error,
	// when the human values are numbers; HasSpearman is false with fewer
	// than two rows or a constant side.
	Spearman    float64
	HasSpearman bool
	MAE         float64
	HasMAE      bool
}

// MaxCategories bounds the distinct numeric values treated as labels.
const MaxCategories = 10

// Pair is one row's metric outcome and human value.
type Pair struct {
	Score float64
	Label string // the metric's label, "" when it gives none
	Human any    // a number, a string or a bool
}

// Agree computes the agreement of a metric with people over pairs.
func Agree(metric string, pairs []Pair) Agreement {
	a := Agreement{Metric: metric, N: len(pairs)}
	if len(pairs) == 0 {
		return a
	}
	numeric := true
	var xs, ys []float64
	for _, p := range pairs {
		h, ok := p.Human.(float64)
		if !ok {
			numeric = false
			break
		}
		xs, ys = append(xs, p.Score), append(ys, h)
	}
	var judged, human []string
	if numeric {
		a.Spearman, a.HasSpearman = Spearman(xs, ys)
		sum := 0.0
		for i := range xs {
			sum += math.Abs(xs[i] - ys[i])
		}
		a.MAE, a.HasMAE = sum/float64(len(xs)), true
		for i := range xs {
			judged, human = append(judged, num(xs[i])), append(human, num(ys[i]))
		}
		if distinct(append(slices.Clone(judged), human...)) > MaxCategories {
			return a
		}
	} else {
		for _, p := range pairs {
			j := p.Label
			if j == "" {
				j = num(p.Score)
			}
			judged, human = append(judged, j), append(human, labelText(p.Human))
		}
	}
	a.Confusion = map[string]map[string]int{}
	for i := range judged {
		if a.Confusion[human[i]] == nil {
			a.Confusion[human[i]] = map[string]int{}
		}
		a.Confusion[human[i]][judged[i]]++
	}
	a.Kappa, a.HasKappa = CohenKappa(human, judged)
	return a
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func labelText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

func distinct(xs []string) int {
	seen := map[string]bool{}
	for _, x := range xs {
		seen[x] = true
	}
	return len(seen)
}

// CohenKappa is Cohen's kappa of two raters' labels of the same items:
// (po − pe) / (1 − pe), po the share of items they agree on and pe the
// agreement their label frequencies give by chance. false when pe is 1
// (both raters always give the same single label).
func CohenKappa(a, b []string) (float64, bool) {
	n := float64(len(a))
	if n == 0 || len(a) != len(b) {
		return 0, false
	}
	ca, cb := map[string]float64{}, map[string]float64{}
	agree := 0.0
	for i := range a {
		ca[a[i]]++
		cb[b[i]]++
		if a[i] == b[i] {
			agree++
		}
	}
	pe := 0.0
	for k, v := range ca {
		pe += v / n * cb[k] / n
	}
	if pe >= 1 {
		return 0, false
	}
	return (agree/n - pe) / (1 - pe), true
}

// Spearman is the rank correlation of x and y: Pearson's correlation of
// their ranks, tied values given the mean of their ranks. false with
// fewer than two items or when a side is constant.
func Spearman(x, y []float64) (float64, bool) {
	if len(x) < 2 || len(x) != len(y) {
		return 0, false
	}
	rx, ry := ranks(x), ranks(y)
	mx, _ := Mean(rx)
	my, _ := Mean(ry)
	var sxy, sxx, syy float64
	for i := range rx {
		dx, dy := rx[i]-mx, ry[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0, false
	}
	return sxy / math.Sqrt(sxx*syy), true
}

// ranks gives each value its 1-based rank, ties the mean of theirs.
func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	out := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		r := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			out[idx[k]] = r
		}
		i = j + 1
	}
	return out
}
