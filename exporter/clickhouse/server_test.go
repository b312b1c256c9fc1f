package clickhouse

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// privateServer is a ClickHouse server of the test's own (data directory
// and ports), so that a test can stop and start it without disturbing
// other tests that use the shared server.
type privateServer struct {
	t        testing.TB
	bin      string
	dir      string
	tcpPort  int
	httpPort int
	cmd      *exec.Cmd
}

func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func newPrivateServer(t testing.TB) *privateServer {
	t.Helper()
	serverDSN(t)
	bin := os.Getenv("EVALSIDECAR_CLICKHOUSE_SERVER")
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("EVALSIDECAR_CLICKHOUSE_SERVER is not set (scripts/test exports it)")
		}
		t.Skip("EVALSIDECAR_CLICKHOUSE_SERVER not set")
	}
	p := &privateServer{t: t, bin: bin, dir: t.TempDir(), tcpPort: freePort(t), httpPort: freePort(t)}
	users, err := os.ReadFile(filepath.Join("testdata", "users.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.dir, "users.xml"), users, 0o644); err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf(`<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>%[1]s/server.log</log><errorlog>%[1]s/server.err.log</errorlog><size>10M</size><count>1</count></logger>
  <listen_host>127.0.0.1</listen_host>
  <tcp_port>%[2]d</tcp_port>
  <http_port>%[3]d</http_port>
  <path>%[1]s/data/</path>
  <tmp_path>%[1]s/tmp/</tmp_path>
  <user_files_path>%[1]s/user_files/</user_files_path>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mark_cache_size>67108864</mark_cache_size>
  <uncompressed_cache_size>67108864</uncompressed_cache_size>
  <mlock_executable>false</mlock_executable>
</yandex>
`, p.dir, p.tcpPort, p.httpPort)
	if err := os.WriteFile(filepath.Join(p.dir, "config.xml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	p.start()
	t.Cleanup(p.stop)
	return p
}

func (p *privateServer) dsn() string { return fmt.Sprintf("clickhouse://127.0.0.1:%d", p.tcpPort) }

func (p *privateServer) start() {
	p.t.Helper()
	cmd := exec.Command(p.bin, "--config-file="+filepath.Join(p.dir, "config.xml"))
	cmd.Dir = p.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	log, err := os.OpenFile(filepath.Join(p.dir, "stdout.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		p.t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	p.cmd = cmd
	waitFor(p.t, 60*time.Second, "private ClickHouse to answer", p.answers)
}

func (p *privateServer) answers() bool {
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/?query=%s", p.httpPort, url.QueryEscape("SELECT 1")))
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// stop terminates the server and waits for it to exit.
func (p *privateServer) stop() {
	if p.cmd == nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	p.cmd = nil
}
