package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"unsafe"

	"alak/internal/testlong"
)

var spin atomic.Int64

// queued is how many bytes the kernel holds for conn, unread (FIONREAD).
func queued(t *testing.T, conn net.Conn) int {
	t.Helper()
	rc, err := conn.(*net.TCPConn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var n int32
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n)))
	}); err != nil || errno != 0 {
		t.Fatalf("FIONREAD: %v %v", err, errno)
	}
	return int(n)
}

// nextEvent reads one event's data from a stream.
func nextEvent(t *testing.T, br *bufio.Reader) string {
	t.Helper()
	var data string
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the stream: %v", err)
		}
		if d, ok := strings.CutPrefix(line, "data: "); ok {
			data = strings.TrimSpace(d)
		}
		if line == "\n" && data != "" {
			return data
		}
	}
}

// TestOpponentEventBeforeAnswer: when the mover has the answer to a move,
// the opponent's stream already holds the move's event: the server writes
// it to the streams of the player to move before it answers, instead of
// leaving it to a goroutine the scheduler may run much later (under load,
// hundreds of milliseconds after the answer; docs/load.md). The check
// needs no clock: the event's bytes are in the opponent's socket
// (FIONREAD) the moment the answer is read.
func TestOpponentEventBeforeAnswer(t *testing.T) {
	// Not in parallel: it keeps the cores busy on purpose.
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	// Goroutines that keep the process's cores busy, as a loaded server's
	// requests do: a goroutine woken and queued behind them waits.
	stop := make(chan struct{})
	defer close(stop)
	for range 2 * runtime.GOMAXPROCS(0) {
		go func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				for range 1000000 {
					spin.Add(1)
				}
			}
		}()
	}
	// 10 moves (30 with ALAK_LONG=1): the spinning goroutines keep both
	// cores busy for as long as the test lasts.
	want := testlong.Size(t, 10, 30)
	checked := 0
	for games := 0; checked < want && games < 8; games++ {
		checked += opponentEventFirst(t, h, ada, bo)
	}
	if checked < want*2/3 {
		t.Fatalf("only %d moves checked, want %d", checked, want)
	}
}

// opponentEventFirst plays a game of ada's (x) against bo, checking at
// each of ada's moves that bo's stream holds the event when ada has the
// answer; it returns how many moves it checked.
func opponentEventFirst(t *testing.T, h *harness, ada, bo *client) int {
	g := ada.create(map[string]string{"rules": "alak size=11", "color": "x", "clock": "none", "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	// Bo's stream, signed in with bo's cookie, on a connection of its own.
	conn, err := net.Dial("tcp", h.http.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var cookies []string
	for _, c := range bo.c.Jar.Cookies(&url.URL{Scheme: "http", Host: h.http.Listener.Addr().String()}) {
		cookies = append(cookies, c.Name+"="+c.Value)
	}
	fmt.Fprintf(conn, "GET /api/games/%s/events HTTP/1.1\r\nHost: test\r\nCookie: %s\r\n\r\n", g.ID, strings.Join(cookies, "; "))
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("bo's stream: %v %v", resp, err)
	}
	// The body is chunked: read it through the response, whose reader
	// takes the bytes from br.
	body := bufio.NewReader(resp.Body)
	nextEvent(t, body) // the state at the start

	type state struct {
		Ply    int    `json:"ply"`
		Over   bool   `json:"over"`
		ToMove string `json:"to_move"`
		Legal  []any  `json:"legal"`
	}
	var st state
	if code := ada.do("GET", "/api/games/"+g.ID, nil, &st); code != http.StatusOK {
		t.Fatalf("the game: %d", code)
	}
	// Ada's own stream, read along: the server wakes two streams a move.
	adaEvents, err := ada.c.Get(h.http.URL + "/api/games/" + g.ID + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer adaEvents.Body.Close()
	go io.Copy(io.Discard, adaEvents.Body)
	checked := 0
	for !st.Over {
		// Ada moves; the answer in hand, bo's event must be there.
		if st.ToMove != "x" || len(st.Legal) == 0 {
			t.Fatalf("ply %d: %s to move, %d legal moves", st.Ply, st.ToMove, len(st.Legal))
		}
		var ack state
		if code := ada.do("POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": fmt.Sprint(st.Legal[0]), "ply": st.Ply}, &ack); code != http.StatusOK {
			t.Fatalf("ada's move at ply %d: %d", st.Ply, code)
		}
		if n := body.Buffered() + br.Buffered() + queued(t, conn); n == 0 {
			t.Errorf("ply %d: ada has the answer, bo's stream has nothing yet", st.Ply)
		}
		checked++
		if json.Unmarshal([]byte(nextEvent(t, body)), &st); st.Ply != ack.Ply {
			t.Fatalf("bo's event is at ply %d, the answer at %d", st.Ply, ack.Ply)
		}
		if st.Over {
			break
		}
		// Bo answers (its own stream sees it too).
		if code := bo.do("POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": fmt.Sprint(st.Legal[0]), "ply": st.Ply}, &ack); code != http.StatusOK {
			t.Fatalf("bo's move at ply %d: %d", st.Ply, code)
		}
		json.Unmarshal([]byte(nextEvent(t, body)), &st)
	}
	return checked
}
