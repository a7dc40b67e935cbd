package sdk

import (
	"strconv"
	"strings"
)

// This file compares JSON numbers exactly, as decimals, without float64.
// The host keeps numbers as written (json.Number), and the sdk checks them
// the same way. So 9007199254740993 is neither rounded nor mistaken for
// 9007199254740992. It needs no math/big. Comparing two decimals is
// comparing signs, magnitudes and digit strings.

// decimal is a JSON number as sign × digits × 10^exp. digits has no
// leading or trailing zeros. It is "" for zero.
type decimal struct {
	neg    bool
	digits string
	exp    int64
}

// maxExp bounds the exponents decimal keeps. A number beyond it, such as
// 1e999999999999999999, is far outside every bound an author can write.
// It is outside every Go number type too. So clamping it changes no answer.
const maxExp = 1 << 50

// parseDecimal parses s as a JSON number (RFC 8259 grammar). It reports
// false when s is not one.
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	i := 0
	if i < len(s) && s[i] == '-' {
		d.neg = true
		i++
	}
	start := i
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	default:
		return decimal{}, false
	}
	intPart := s[start:i]
	frac := ""
	if i < len(s) && s[i] == '.' {
		i++
		fs := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == fs {
			return decimal{}, false
		}
		frac = s[fs:i]
	}
	var exp int64
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		negExp := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			negExp = s[i] == '-'
			i++
		}
		es := i
		for i < len(s) && isDigit(s[i]) {
			if exp < maxExp {
				exp = exp*10 + int64(s[i]-'0')
			}
			i++
		}
		if i == es {
			return decimal{}, false
		}
		if negExp {
			exp = -exp
		}
	}
	if i != len(s) {
		return decimal{}, false
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	trimmed := strings.TrimRight(digits, "0")
	d.digits = trimmed
	d.exp = exp - int64(len(frac)) + int64(len(digits)-len(trimmed))
	if d.digits == "" {
		d.neg, d.exp = false, 0 // -0 is 0
	}
	return d, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// floatDecimal returns f as the shortest decimal that reads back as f. That
// is the number an author wrote in a tag such as minimum=0.1. It is not the
// binary approximation 0.1000000000000000055… stored for it.
func floatDecimal(f float64) decimal {
	d, _ := parseDecimal(strconv.FormatFloat(f, 'e', -1, 64))
	return d
}

func (d decimal) sign() int {
	switch {
	case d.digits == "":
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// cmp compares d and e exactly: -1, 0 or +1.
func (d decimal) cmp(e decimal) int {
	ds, es := d.sign(), e.sign()
	if ds != es || ds == 0 {
		return compare(ds, es)
	}
	// Same sign, both non-zero: compare magnitudes. A number with digits D
	// and exponent x lies in [10^(len(D)+x-1), 10^(len(D)+x)).
	c := compare(int64(len(d.digits))+d.exp, int64(len(e.digits))+e.exp)
	if c == 0 {
		c = strings.Compare(d.digits, e.digits) // no trailing zeros: a longer string is larger
	}
	return c * ds
}

func compare[T int | int64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// integral reports whether d is an integer. 7, 1e3, 1.0 and -0 are. 1.5 is
// not.
func (d decimal) integral() bool { return d.digits == "" || d.exp >= 0 }

// maxPlainDigits bounds the integers plain writes out. A longer one fits no
// Go integer type (uint64 has 20 digits). It stays as the author wrote it.
const maxPlainDigits = 400

// plain returns an integral d in plain digits: "1000" for 1e3, "1" for 1.0.
// It returns false when d is not integral or has more than maxPlainDigits
// digits.
func (d decimal) plain() (string, bool) {
	if !d.integral() {
		return "", false
	}
	if d.digits == "" {
		return "0", true
	}
	if int64(len(d.digits))+d.exp > maxPlainDigits {
		return "", false
	}
	s := d.digits + strings.Repeat("0", int(d.exp))
	if d.neg {
		s = "-" + s
	}
	return s, true
}
