package ngram
import "testing"
func BenchmarkZZGrams(b *testing.B) {
	a, c := make([]int32, 250), make([]int32, 250)
	for i := range a { a[i], c[i] = int32((i*7+3)%90), int32((i*7)%90) }
	b.ReportAllocs()
	for b.Loop() { Grams([][]int32{a, c}, 90, 4) }
}
func BenchmarkZZVocab(b *testing.B) {
	toks := make([]string, 500)
	for i := range toks { toks[i] = string(rune('a'+i%26)) + string(rune('a'+(i*7)%90/26)) + "xyz" }
	b.ReportAllocs()
	for b.Loop() { var v Vocabulary; v.IDs(toks) }
}
