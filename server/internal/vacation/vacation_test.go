package vacation

import (
	"testing"
	"time"

	"alak/server/store"
)

const day = 24 * time.Hour

// TestAccrue: 30 days a year, 2.5 at each month's end, at most 60 banked
// (the figures).
func TestAccrue(t *testing.T) {
	t.Parallel()
	made := time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		v    store.Vacation
		now  time.Time
		bank time.Duration
		next time.Time // accrued to
	}{
		{"a new account", store.Vacation{Accrued: made}, made, 0, made},
		{"a minute short of a month", store.Vacation{Accrued: made}, made.AddDate(0, 1, 0).Add(-time.Minute), 0, made},
		{"one month", store.Vacation{Accrued: made}, made.AddDate(0, 1, 0), 60 * time.Hour, made.AddDate(0, 1, 0)},
		{"a year", store.Vacation{Accrued: made}, made.AddDate(1, 0, 0).Add(time.Hour), 30 * day, made.AddDate(1, 0, 0)},
		{"two years: 60 days", store.Vacation{Accrued: made}, made.AddDate(2, 0, 0), 60 * day, made.AddDate(2, 0, 0)},
		{"five years: still 60", store.Vacation{Accrued: made}, made.AddDate(5, 0, 0), 60 * day, made.AddDate(5, 0, 0)},
		{"59 banked, one month more", store.Vacation{Accrued: made, Bank: 59 * day}, made.AddDate(0, 1, 0), 60 * day, made.AddDate(0, 1, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := accrue(tc.v, tc.now)
			if got.Bank != tc.bank || !got.Accrued.Equal(tc.next) {
				t.Errorf("accrue: bank %v accrued to %v; want %v to %v", got.Bank, got.Accrued, tc.bank, tc.next)
			}
		})
	}
	v := store.Vacation{Since: made, Bank: 5 * day}
	if got := vacationLeft(v, made.Add(36*time.Hour)); got != 3*day+12*time.Hour {
		t.Errorf("left after 36 hours of 5 days: %v", got)
	}
	if got := endVacation(v, made.Add(6*day)); got.Bank != 0 || !got.Since.IsZero() {
		t.Errorf("ended after 6 days of 5: %+v", got)
	}
}
