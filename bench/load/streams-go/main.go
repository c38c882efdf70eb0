// Load generator for streamed chat completions, the Go twin of bench/load/streams.mjs (same flags,
// same JSON line): one goroutine per stream holds 10,000 streams where the Node client could not.
//
//	--mode hold   open --concurrency streams (spread over --ramp-ms), each read to its end
//	--mode ttft   one stream after another for --duration-s seconds (--gap-ms apart)
//
// A stall is a gap over --stall-ms between two reads of a stream's body. failures counts each
// failed stream by reason; peakOpen is the most streams open (headers received, body not ended) at once.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

type result struct {
	ok     bool
	ttft   float64 // ms, NaN when no content chunk arrived
	maxGap float64 // ms
	chunks int
	reason string
}

type summary struct {
	Streams   int            `json:"streams"`
	Completed int            `json:"completed"`
	Failed    int            `json:"failed"`
	Stalled   int            `json:"stalled"`
	TtftP50   *float64       `json:"ttftP50"`
	TtftP99   *float64       `json:"ttftP99"`
	MaxGapP99 *float64       `json:"maxGapP99"`
	MaxGap    *float64       `json:"maxGap"`
	WallMs    float64        `json:"wallMs"`
	Failures  map[string]int `json:"failures"`
	PeakOpen  int64          `json:"peakOpen"`
	Client    string         `json:"client"`
}

var (
	url       = flag.String("url", "", "target URL")
	headersJS = flag.String("headers", "{}", "request headers as JSON")
	model     = flag.String("model", "", "model of the default OpenAI body")
	mode      = flag.String("mode", "hold", "hold or ttft")
	conc      = flag.Int("concurrency", 1, "streams held at once (hold)")
	rampMs    = flag.Int("ramp-ms", 1000, "spread the opening over this many ms (hold)")
	durationS = flag.Float64("duration-s", 10, "seconds of sequential streams (ttft)")
	gapMs     = flag.Float64("gap-ms", 0, "pause after each stream before the next (ttft)")
	stallMs   = flag.Float64("stall-ms", 1000, "a gap over this between chunks is a stall")
	timeoutMs = flag.Int("timeout-ms", 120000, "a stream's deadline")
	bodyFlag  = flag.String("body", "", "request body replacing the OpenAI one")
	first     = flag.String("first", `"content":"[^"]`, "pattern of the first generated chunk")
	done      = flag.String("done", "[DONE]", "text marking a complete stream")
)

var (
	client  *http.Client
	headers map[string]string
	body    []byte
	content *regexp.Regexp
	doneB   []byte
	open    atomic.Int64
	peak    atomic.Int64
	started = time.Now()
)

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// reason names a failure by its system error where there is one (ECONNRESET, EADDRNOTAVAIL, EMFILE…).
func reason(err error) string {
	var errno syscall.Errno
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.As(err, &errno):
		return fmt.Sprintf("errno %d %s", int(errno), errno.Error())
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "connection closed"
	}
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return "timeout"
	}
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	return msg
}

func markOpen() {
	n := open.Add(1)
	for {
		p := peak.Load()
		if n <= p || peak.CompareAndSwap(p, n) {
			return
		}
	}
}

func oneStream() (r result) {
	r.ttft = math.NaN()
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(*timeoutMs)*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, *url, bytes.NewReader(body))
	if err != nil {
		r.reason = "request: " + err.Error()
		return
	}
	req.Header.Set("content-type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := client.Do(req)
	if err != nil {
		r.reason = reason(err)
		return
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		io.Copy(io.Discard, res.Body)
		r.reason = fmt.Sprintf("status %d", res.StatusCode)
		return
	}
	markOpen()
	defer open.Add(-1)
	buf := make([]byte, 16<<10)
	last := start
	finished := false
	for {
		n, err := res.Body.Read(buf)
		if n > 0 {
			now := time.Now()
			chunk := buf[:n]
			if math.IsNaN(r.ttft) && content.Match(chunk) {
				r.ttft = ms(now.Sub(start))
			}
			if r.chunks > 0 {
				r.maxGap = math.Max(r.maxGap, ms(now.Sub(last)))
			}
			last = now
			r.chunks++
			if bytes.Contains(chunk, doneB) {
				finished = true
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			r.reason = reason(err)
			return
		}
	}
	r.ok = finished
	if !finished {
		r.reason = "ended before the done marker"
	}
	return
}

func hold(concurrency int, ramp time.Duration) []result {
	results := make([]result, concurrency)
	var wg sync.WaitGroup
	begin := time.Now()
	for i := 0; i < concurrency; i++ {
		// Spread the opening evenly so the run measures holding streams, not a SYN burst.
		if ramp > 0 {
			if wait := time.Until(begin.Add(ramp * time.Duration(i) / time.Duration(concurrency))); wait > 0 {
				time.Sleep(wait)
			}
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			results[i] = oneStream()
		}(i)
	}
	wg.Wait()
	return results
}

func sequential(duration time.Duration) []result {
	var results []result
	end := time.Now().Add(duration)
	gap := time.Duration(*gapMs * float64(time.Millisecond))
	for time.Now().Before(end) {
		results = append(results, oneStream())
		if gap > 0 {
			time.Sleep(gap)
		}
	}
	return results
}

// percentile matches streams.mjs: the value at rank ceil(p% of n), nil when there is none.
func percentile(sorted []float64, p float64) *float64 {
	if len(sorted) == 0 {
		return nil
	}
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	i = max(0, min(len(sorted)-1, i))
	v := sorted[i]
	return &v
}

func main() {
	flag.Parse()
	if *url == "" {
		fmt.Fprintln(os.Stderr, "streams-go: --url is required")
		os.Exit(2)
	}
	if err := json.Unmarshal([]byte(*headersJS), &headers); err != nil {
		fmt.Fprintln(os.Stderr, "streams-go: --headers:", err)
		os.Exit(2)
	}
	var err error
	if content, err = regexp.Compile(*first); err != nil {
		fmt.Fprintln(os.Stderr, "streams-go: --first:", err)
		os.Exit(2)
	}
	doneB = []byte(*done)
	if *bodyFlag != "" {
		body = []byte(*bodyFlag)
	} else {
		body, _ = json.Marshal(map[string]any{
			"model":    *model,
			"messages": []map[string]string{{"role": "user", "content": "Stream a story to the benchmark."}},
			"stream":   true,
		})
	}
	client = &http.Client{Transport: &http.Transport{
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:          0,
		MaxIdleConnsPerHost:   max(*conc, 2),
		IdleConnTimeout:       30 * time.Second,
		ResponseHeaderTimeout: time.Duration(*timeoutMs) * time.Millisecond,
		DisableCompression:    true,
		ReadBufferSize:        8 << 10,
		WriteBufferSize:       4 << 10,
	}}

	var results []result
	if *mode == "ttft" {
		results = sequential(time.Duration(*durationS * float64(time.Second)))
	} else {
		results = hold(*conc, time.Duration(*rampMs)*time.Millisecond)
	}
	s := summary{Streams: len(results), Failures: map[string]int{}, Client: "go"}
	s.WallMs = ms(time.Since(started))
	var ttfts, gaps []float64
	for _, r := range results {
		if !math.IsNaN(r.ttft) {
			ttfts = append(ttfts, r.ttft)
		}
		if r.ok {
			s.Completed++
			gaps = append(gaps, r.maxGap)
			if r.maxGap > *stallMs {
				s.Stalled++
			}
		} else {
			s.Failed++
			s.Failures[r.reason]++
		}
	}
	sort.Float64s(ttfts)
	sort.Float64s(gaps)
	s.TtftP50, s.TtftP99 = percentile(ttfts, 50), percentile(ttfts, 99)
	s.MaxGapP99 = percentile(gaps, 99)
	if len(gaps) > 0 {
		s.MaxGap = &gaps[len(gaps)-1]
	}
	s.PeakOpen = peak.Load()
	line, _ := json.Marshal(s)
	os.Stdout.Write(append(line, '\n'))
}
