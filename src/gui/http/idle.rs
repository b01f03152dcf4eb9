//! Connections that fall idle are closed: a client that sends half a
//! header, a body shorter than its `Content-Length`, or nothing at all
//! would otherwise hold a socket (and a file descriptor) for as long as
//! it liked, and a few hundred of them stop the page from answering, as
//! nginx's `client_header_timeout` and Node's `headersTimeout` guard
//! against. Any byte read or written counts as activity, so an event
//! stream stays open as long as its keep-alive comments flow.

use axum::serve::Listener;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{sleep, Instant, Sleep};

/// A TCP listener whose connections close after `idle` without traffic.
pub struct IdleListener {
    /// The socket it accepts on.
    pub inner: TcpListener,
    /// How long a connection may pass with no byte read or written.
    pub idle: Duration,
}

impl Listener for IdleListener {
    type Io = IdleStream;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (IdleStream, std::net::SocketAddr) {
        let (stream, addr) = Listener::accept(&mut self.inner).await;
        let stream = IdleStream {
            inner: stream,
            idle: self.idle,
            deadline: Box::pin(sleep(self.idle)),
        };
        (stream, addr)
    }

    fn local_addr(&self) -> io::Result<std::net::SocketAddr> {
        self.inner.local_addr()
    }
}

/// A connection that fails its reads and writes once `idle` has passed
/// since its last traffic; the server then drops it.
pub struct IdleStream {
    inner: TcpStream,
    idle: Duration,
    deadline: Pin<Box<Sleep>>,
}

impl IdleStream {
    /// After traffic: the idle time starts again.
    fn active(&mut self) {
        let next = Instant::now() + self.idle;
        self.deadline.as_mut().reset(next);
    }

    /// While waiting: an error once the deadline has passed.
    fn expired(&mut self, cx: &mut Context<'_>) -> bool {
        self.deadline.as_mut().poll(cx).is_ready()
    }

    fn timed_out() -> io::Error {
        io::Error::new(io::ErrorKind::TimedOut, "connection idle for too long")
    }
}

impl AsyncRead for IdleStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(result) => {
                this.active();
                Poll::Ready(result)
            }
            Poll::Pending if this.expired(cx) => Poll::Ready(Err(IdleStream::timed_out())),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncWrite for IdleStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_write(cx, buf) {
            Poll::Ready(result) => {
                this.active();
                Poll::Ready(result)
            }
            Poll::Pending if this.expired(cx) => Poll::Ready(Err(IdleStream::timed_out())),
            Poll::Pending => Poll::Pending,
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}
