package pages

import (
	"fmt"
	"slices"
	"sync"
	"testing"
)

// TestModulePreloadsConcurrent: the pages' preload lists are worked out
// by many requests at once and must not write into the shared import
// lists (the race detector caught modulePreloads appending to them): every
// call gives the first call's answer, and -race sees no write.
func TestModulePreloadsConcurrent(t *testing.T) {
	t.Parallel()
	want := map[string][]string{}
	for _, page := range []string{"game", "home", "archive", "leaderboard", "watch"} {
		want[page] = modulePreloads(page)
	}
	if len(want["game"]) == 0 {
		t.Fatal("the game page preloads nothing")
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for page, w := range want {
				if got := modulePreloads(page); !slices.Equal(got, w) {
					errs <- fmt.Sprintf("call %d, %s: %v, want %v", i, page, got, w)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
