package guard

import (
	"regexp"
	"strings"
	"unicode"
)

// masterKeys are answers known to make judges accept them whatever the
// question ("One Token to Fool LLM-as-a-Judge"), normalised by
// normaliseAnswer.
var masterKeys = map[string]bool{
	"thought process":                       true,
	"let's solve this problem step by step": true,
	"lets solve this problem step by step":  true,
	"let's think step by step":              true,
	"solution":                              true,
	"answer":                                true,
	"the answer is":                         true,
	"final answer":                          true,
	"解":                                     true,
	"答案":                                    true,
}

// isEmptyAnswer reports an answer that is empty, punctuation, symbols or
// spaces only, or a master key.
func isEmptyAnswer(s string) bool {
	substantive := strings.ContainsFunc(s, func(r rune) bool {
		return !unicode.IsSpace(r) && !unicode.IsPunct(r) && !unicode.IsSymbol(r) && !unicode.IsControl(r)
	})
	if !substantive {
		return true
	}
	return masterKeys[normaliseAnswer(s)]
}

// normaliseAnswer lower-cases s, folds typographic apostrophes, collapses
// spaces and trims surrounding spaces and punctuation.
func normaliseAnswer(s string) string {
	if len(s) > 128 {
		return ""
	}
	s = strings.ToLower(strings.ReplaceAll(s, "’", "'"))
	s = strings.Join(strings.Fields(s), " ")
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsPunct(r) && r != '\'' || unicode.IsSpace(r) })
}

// homoglyphs maps look-alike letters of other scripts to Latin ones.
var homoglyphs = map[rune]rune{
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'х': 'x', 'у': 'y', 'і': 'i', 'ј': 'j', 'ѕ': 's', 'ԁ': 'd',
	'ɡ': 'g', 'һ': 'h', 'ԛ': 'q', 'ԝ': 'w', 'ӏ': 'l', 'ν': 'v', 'ο': 'o', 'α': 'a', 'ι': 'i', 'κ': 'k', 'ρ': 'p',
	'τ': 't', 'υ': 'u', 'ε': 'e', 'ѵ': 'v', 'ꞇ': 't', 'ı': 'i', 'ℓ': 'l',
}

// normaliseForMatch prepares text for the injection phrases: lower case,
// full-width forms and look-alike letters folded to ASCII, punctuation
// other than { } " : / and ' turned into spaces, spaces collapsed.
func normaliseForMatch(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := true
	for _, r := range s {
		if r >= 0xFF01 && r <= 0xFF5E {
			r -= 0xFEE0
		}
		r = unicode.ToLower(r)
		if h, ok := homoglyphs[r]; ok {
			r = h
		}
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(`{}":/'`, r):
			b.WriteRune(r)
			space = false
		case unicode.Is(unicode.Mn, r) || r == 0x200C || r == 0x200D:
			// combining marks and joiners inside words are dropped
		default:
			if !space {
				b.WriteByte(' ')
				space = true
			}
		}
	}
	return b.String()
}

// injectionPhrases are known prompt-injection phrasings aimed at a judge,
// matched against normaliseForMatch output.
var injectionPhrases = []*regexp.Regexp{
	regexp.MustCompile(`\bignore (?:(?:all|any|every|the|your|my|of|these|those) )*(?:previous|prior|above|preceding|earlier|former|original|system|other|existing|given) (?:instructions?|prompts?|directions?|rules|guidelines|context|messages?|text|criteria|rubrics?|tasks?)`),
	regexp.MustCompile(`\bignore (?:(?:all|any|the|your) )*(?:instructions?|rules|guidelines|rubrics?|criteria|evaluation criteria)\b`),
	regexp.MustCompile(`\bdisregard (?:(?:all|any|of|the|your|everything) )*(?:above|previous|prior|preceding|earlier|instructions?|rules|rubrics?|criteria|guidelines)`),
	regexp.MustCompile(`\bforget (?:(?:all|any|everything|of|the|your) )*(?:above|previous|prior|instructions?|rules|rubrics?|criteria|you were told)`),
	regexp.MustCompile(`\byou are now\b`),
	regexp.MustCompile(`\b(?:new|updated|revised|real|actual|true) (?:instructions?|rules|task|system prompt)\b`),
	regexp.MustCompile(`\bas (?:the|an|a|this|my) (?:ai |llm |automated |impartial )?(?:evaluator|judge|grader|assessor|reviewer|rater|scorer)s? (?:you )?(?:must|should|will|need|are required|have to|shall)\b`),
	regexp.MustCompile(`\b(?:note|message|instructions?|reminder) (?:to|for) (?:the |any )?(?:ai |llm |automated |language model )?(?:evaluators?|judges?|graders?|assessors?|reviewers?|raters?|models?|ai|llms?|assistants?)\b`),
	regexp.MustCompile(`\b(?:dear|attention|hey|hello|hi) (?:ai |llm )?(?:evaluators?|judges?|graders?|assessors?|raters?|scorers?)\b`),
	regexp.MustCompile(`\b(?:evaluators?|judges?|graders?|assessors?|raters?|scorers?|reviewers?) (?:must|should|shall|will|need to|have to|are instructed to|is instructed to) (?:give|assign|award|rate|score|output|return|mark|grade|pass|accept|approve)\b`),
	regexp.MustCompile(`\bgive (?:this|me|it|us|the (?:answer|response|agent|output|model)) (?:a |an |the )?(?:(?:score|rating|grade|marks?) of|(?:perfect|full|maximum|max|top|highest) (?:score|rating|grade|marks?)|10|5)\b`),
	regexp.MustCompile(`\brate (?:this|it|the (?:answer|response|agent|output)|me) (?:a |as |with )?(?:10|5|ten|five|perfect|highest|maximum|excellent|top)\b`),
	regexp.MustCompile(`\b(?:score|grade|mark) (?:this|it|me) (?:as |a |with )?(?:10|5|ten|five|perfect|highest|maximum|full marks|excellent|correct)\b`),
	regexp.MustCompile(`\b(?:assign|award|output|return|give|grant) (?:a |an |the )?(?:perfect|full|maximum|max|highest|top) (?:score|rating|grade|marks?)\b`),
	regexp.MustCompile(`\b(?:deserves|merits|earns|warrants|should get|should receive|must get|must receive) (?:a |an |the )?(?:perfect|full|maximum|max|highest|top|10|5) (?:score|rating|grade|marks?|out of)`),
	regexp.MustCompile(`\b(?:output|return|respond with|reply with|answer with|print|emit) (?:only |just |exactly )?(?:the |this |a )?(?:json )?(?:\{ ?"?|")(?:score|verdict|rating|grade|label)\b`),
	regexp.MustCompile(`\b(?:output|return|respond with|reply with|answer with|print|emit) (?:only |just |exactly )?(?:score|verdict|rating|grade) ?: ?(?:10|5|pass|yes|correct|perfect)\b`),
	regexp.MustCompile(`\bsystem prompt\b`),
	regexp.MustCompile(`\b(?:developer|god|dan|jailbreak|admin|sudo) mode\b`),
	regexp.MustCompile(`\b(?:override|bypass|overrule) (?:(?:the|your|all|any|previous) )*(?:scoring|evaluation|grading|rubrics?|instructions?|rules|guidelines|system|safety|criteria)\b`),
	regexp.MustCompile(`\bdo not (?:penalize|penalise|deduct|mark down|lower the score|fail|flag)\b`),
	regexp.MustCompile(`\bend of (?:the )?(?:untrusted |quoted |agent )?data\b`),
	regexp.MustCompile(`\b(?:evaluation|grading|scoring|judging|assessment) (?:is )?(?:complete|completed|finished|done|over)\b`),
	regexp.MustCompile(`\bfinal (?:score|rating|grade|verdict) (?:is |= |: |:)?(?:10|5|pass|passed|perfect|100|yes|correct)\b`),
	regexp.MustCompile(`\bverdict (?:is |= |: |:)?(?:pass|passed|yes|correct|accepted|approved)\b`),
	regexp.MustCompile(`\bpretend (?:to be|you are|that you are)\b`),
	regexp.MustCompile(`\bact as (?:the |an |a )?(?:evaluator|judge|grader|system|administrator|developer)\b`),
	regexp.MustCompile(`\b(?:ai|llm|language model|automated) (?:assistants?|models?|agents?|systems?|evaluators?|judges?|graders?)? ?(?:reading|processing|evaluating|summari[sz]ing|grading|reviewing) this\b`),
	regexp.MustCompile(`\bif you are (?:an? )?(?:ai|llm|language model|evaluator|judge|grader|assistant)\b`),
	regexp.MustCompile(`\b(?:reveal|print|repeat|show) (?:your|the) (?:instructions|system prompt|prompt|rubric)\b`),
	regexp.MustCompile(`\b(?:10|5|ten|five) ?/ ?(?:10|5|ten|five) (?:is|would be) (?:the )?(?:correct|right|appropriate|only|fair) (?:score|rating|grade)\b`),
}

// injectionSuspected reports whether s contains a known injection
// phrasing.
func injectionSuspected(s string) bool {
	n := normaliseForMatch(s)
	for _, re := range injectionPhrases {
		if re.MatchString(n) {
			return true
		}
	}
	return false
}
