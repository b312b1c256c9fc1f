// Package testtext makes the texts the text metrics' tests and
// benchmarks score: answers of a support agent, of any length, that share
// their vocabulary, so that two of them overlap as a response and its
// reference do.
package testtext

import "strings"

// vocabulary is a realistic vocabulary for answers of a few hundred words.
const vocabulary = `the order was shipped on Monday and should arrive within three to five
business days. You can track the package using the link in your confirmation email. If the item
arrives damaged, please contact our support team and we will arrange a replacement or a full refund.
Returns are accepted within thirty days of delivery, provided the product is unused and in its
original packaging. Refunds are processed to the original payment method once the warehouse has
inspected the returned items, which usually takes two or three working days.`

// Answer returns an n-word text drawn from the vocabulary, starting at
// offset, with a sentence break (".\n") every 20 words. Answers with
// different offsets share words and some of their word pairs.
func Answer(n, offset int) string {
	words := strings.Fields(vocabulary)
	var b strings.Builder
	for i := range n {
		if i > 0 {
			if i%20 == 0 {
				b.WriteString(".\n")
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(words[(i*7+offset)%len(words)])
	}
	return b.String()
}
